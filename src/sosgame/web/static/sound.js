// Sounds, off until the player turns them on; the choice is kept in this browser.
import { t } from "./i18n.js";

const audio = { context: null }; // made on the first sound

export function soundOn() {
  return localStorage.getItem("sos.sound") === "on";
}

export function drawSoundToggle() {
  const toggle = document.getElementById("sound");
  toggle.setAttribute("aria-pressed", String(soundOn()));
  toggle.textContent = soundOn() ? t("web.sound_on") : t("web.sound_off");
}

// Short tones made by WebAudio, no sound files: a move, an SOS, the end of the game.
export function beep(kind) {
  if (!soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio.context = audio.context || new Context();
  const notes = { move: [587], line: [659, 880], end: [523, 659, 784] }[kind];
  const start = audio.context.currentTime;
  notes.forEach((frequency, index) => {
    const at = start + index * 0.12;
    const tone = audio.context.createOscillator();
    const gain = audio.context.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    tone.connect(gain).connect(audio.context.destination);
    tone.start(at);
    tone.stop(at + 0.18);
  });
}
