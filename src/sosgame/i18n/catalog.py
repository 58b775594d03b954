"""Every text the interfaces show, keyed by message, in English, Vietnamese and Hindi."""

from __future__ import annotations

from typing import Final

__all__ = ["CATALOG"]

CATALOG: Final[dict[str, dict[str, str]]] = {
    "mode.general": {"en": "general", "vi": "thông thường", "hi": "सामान्य"},
    "mode.simple": {"en": "simple", "vi": "đơn giản", "hi": "सरल"},
    "title": {
        "en": "SOS, {mode} mode, on a {rows}x{cols} board. Players: {names}.",
        "vi": "SOS, chế độ {mode}, trên bàn {rows}x{cols}. Người chơi: {names}.",
        "hi": "SOS, {mode} खेल, {rows}x{cols} बोर्ड पर। खिलाड़ी: {names}।",
    },
    "to_move": {
        "en": "{name} to move.",
        "vi": "Đến lượt {name}.",
        "hi": "अब {name} की बारी है।",
    },
    "to_move_again": {
        "en": "{name} to move again: extra turn!",
        "vi": "{name} được đi tiếp: thêm một lượt!",
        "hi": "{name} की बारी फिर से: एक अतिरिक्त चाल!",
    },
    "scores": {"en": "Scores: {scores}", "vi": "Điểm: {scores}", "hi": "अंक: {scores}"},
    "moves": {
        "en": "Moves: {moves}",
        "vi": "Các nước đã đi: {moves}",
        "hi": "अब तक की चालें: {moves}",
    },
    "no_moves": {"en": "(none yet)", "vi": "(chưa có)", "hi": "(अभी कोई नहीं)"},
    "extra_turn": {
        "en": "{name} made {count} SOS ({lines}) and moves again.",
        "vi": "{name} tạo được {count} SOS ({lines}) và được đi tiếp.",
        "hi": "{name} ने {count} SOS ({lines}) बनाए, इसलिए अगली चाल भी {name} की है।",
    },
    "scored": {
        "en": "{name} made {count} SOS ({lines}).",
        "vi": "{name} tạo được {count} SOS ({lines}).",
        "hi": "{name} ने {count} SOS ({lines}) बनाए।",
    },
    "occupied": {
        "en": "Cell {cell} already holds a letter. Choose an empty cell.",
        "vi": "Ô {cell} đã có chữ. Hãy chọn một ô trống.",
        "hi": "खाने {cell} में पहले से अक्षर है। कोई खाली खाना चुनें।",
    },
    "off_board": {
        "en": "Cell {cell} is not on this {rows}x{cols} board.",
        "vi": "Ô {cell} không nằm trên bàn {rows}x{cols} này.",
        "hi": "खाना {cell} इस {rows}x{cols} बोर्ड पर नहीं है।",
    },
    "not_understood": {
        "en": "'{text}' is neither a move nor a command. Type a move such as Sb2, or help.",
        "vi": "'{text}' không phải nước đi cũng không phải lệnh. Hãy gõ một nước đi như Sb2,"
        " hoặc help.",
        "hi": "'{text}' न तो कोई चाल है, न कोई आदेश। Sb2 जैसी चाल लिखें, या help लिखें।",
    },
    "game_over": {
        "en": "The game is over. Type undo, save FILE or quit.",
        "vi": "Ván đấu đã kết thúc. Hãy gõ undo, save TÊN_TỆP hoặc quit.",
        "hi": "खेल समाप्त हो चुका है। undo, save फ़ाइल_का_नाम या quit लिखें।",
    },
    "winner": {
        "en": "{name} wins: {reason}.",
        "vi": "{name} thắng: {reason}.",
        "hi": "विजेता: {name}। {reason}।",
    },
    "draw": {
        "en": "A draw between {names}: {reason}.",
        "vi": "Hòa giữa {names}: {reason}.",
        "hi": "{names} के बीच मुकाबला बराबरी पर छूटा। {reason}।",
    },
    "reason.full-board": {
        "en": "the board is full",
        "vi": "bàn đã kín chữ",
        "hi": "बोर्ड भर गया है",
    },
    "reason.sos": {
        "en": "the first SOS",
        "vi": "tạo được SOS đầu tiên",
        "hi": "पहला SOS बना",
    },
    "reason.resignation": {
        "en": "every other player resigned",
        "vi": "mọi người chơi khác đã xin thua",
        "hi": "बाकी सभी खिलाड़ियों ने हार मान ली",
    },
    "resigned": {
        "en": "{name} resigns.",
        "vi": "{name} xin thua.",
        "hi": "{name} ने हार मान ली।",
    },
    "undone": {
        "en": "Took back {action}.",
        "vi": "Đã hủy nước {action}.",
        "hi": "{action} वापस ले ली गई।",
    },
    "nothing_to_undo": {
        "en": "There is nothing to take back.",
        "vi": "Không còn gì để hủy.",
        "hi": "वापस लेने को कुछ नहीं है।",
    },
    "saved": {
        "en": "Saved the game to {path}.",
        "vi": "Đã lưu ván đấu vào {path}.",
        "hi": "खेल {path} में सहेज लिया गया।",
    },
    "save_failed": {
        "en": "Could not save the game: {error}",
        "vi": "Không lưu được ván đấu: {error}",
        "hi": "खेल सहेजा नहीं जा सका: {error}",
    },
    "save_needs_file": {
        "en": "Say where to save: save FILE",
        "vi": "Hãy cho biết lưu vào đâu: save TÊN_TỆP",
        "hi": "बताइए कि कहाँ सहेजना है: save फ़ाइल_का_नाम",
    },
    "goodbye": {"en": "Goodbye.", "vi": "Tạm biệt.", "hi": "फिर मिलेंगे।"},
    "help": {
        "en": (
            "Type a move as the letter, then the cell: Sb2 writes S in column b, row 2.\n"
            "Commands:\n"
            "  undo        take back the last move\n"
            "  resign      the player to move resigns\n"
            "  save FILE   save the game as a record file\n"
            "  moves       list the moves so far\n"
            "  rules       explain the rules\n"
            "  help        show this help\n"
            "  quit        leave the game"
        ),
        "vi": (
            "Gõ nước đi gồm chữ cái rồi đến ô: Sb2 là viết S vào cột b, hàng 2.\n"
            "Các lệnh:\n"
            "  undo        hủy nước đi vừa rồi\n"
            "  resign      người đang đến lượt xin thua\n"
            "  save TỆP    lưu ván đấu thành tệp biên bản\n"
            "  moves       xem các nước đã đi\n"
            "  rules       xem luật chơi\n"
            "  help        xem phần trợ giúp này\n"
            "  quit        rời ván đấu"
        ),
        "hi": (
            "चाल में पहले अक्षर, फिर खाना लिखें: Sb2 का अर्थ है स्तंभ b की पंक्ति 2 में"
            " S लिखना।\n"
            "आदेश:\n"
            "  undo        पिछली चाल वापस लें\n"
            "  resign      जिसकी बारी है, वह हार मान ले\n"
            "  save FILE   खेल को रिकॉर्ड फ़ाइल में सहेजें\n"
            "  moves       अब तक की चालें देखें\n"
            "  rules       खेल के नियम पढ़ें\n"
            "  help        यह सहायता देखें\n"
            "  quit        खेल छोड़ें"
        ),
    },
    "rules": {
        "en": (
            "SOS is a pencil-and-paper game for two or more players on a grid of squares.\n"
            "On your turn, write an S or an O in any empty square; you choose the letter"
            " each time.\n"
            "Three squares in a straight row, across, down or diagonally, that read S-O-S"
            " make an SOS.\n"
            "Each SOS you complete scores one point, and one letter can complete several"
            " at once.\n"
            "Completing an SOS earns another move at once, for as long as you keep scoring;"
            " otherwise the turn passes to the next player.\n"
            "General mode: when the grid is full, the player with the most SOSs wins; a tie"
            " for the most is a draw.\n"
            "Simple mode: the first player to complete an SOS wins at once; a full grid"
            " without one is a draw."
        ),
        "vi": (
            "SOS là trò chơi viết chữ trên lưới ô vuông, dành cho hai người chơi trở lên.\n"
            "Đến lượt mình, bạn viết chữ S hoặc chữ O vào một ô trống bất kỳ; mỗi lượt bạn"
            " tự chọn chữ.\n"
            "Ba ô liền nhau trên một đường thẳng, theo hàng ngang, hàng dọc hay đường chéo,"
            " đọc thành S-O-S thì tạo thành một SOS.\n"
            "Mỗi SOS bạn hoàn thành được một điểm, và một chữ có thể hoàn thành nhiều SOS"
            " cùng lúc.\n"
            "Hoàn thành SOS thì bạn được đi thêm một nước ngay, và cứ thế chừng nào còn ghi"
            " điểm; nếu không, lượt chuyển sang người kế tiếp.\n"
            "Chế độ thông thường: khi lưới kín chữ, ai có nhiều SOS nhất thì thắng; nếu"
            " những người dẫn đầu bằng điểm nhau thì hòa.\n"
            "Chế độ đơn giản: ai hoàn thành SOS đầu tiên thì thắng ngay; lưới kín mà không"
            " có SOS nào thì hòa."
        ),
        "hi": (
            "SOS दो या अधिक खिलाड़ियों का कागज़-पेंसिल वाला खेल है, जो खानों के ग्रिड पर"
            " खेला जाता है।\n"
            "अपनी बारी में किसी भी खाली खाने में S या O लिखिए; हर बार अक्षर आप ख़ुद"
            " चुनते हैं।\n"
            "आड़ी, खड़ी या तिरछी सीधी रेखा में लगातार तीन खाने जब S-O-S पढ़े जाएँ, तो वह"
            " एक SOS है।\n"
            "आपके बनाए हर SOS का एक अंक मिलता है, और एक ही अक्षर से एक साथ कई SOS बन"
            " सकते हैं।\n"
            "SOS बनाने पर आपको तुरंत एक और चाल मिलती है, और जब तक आप अंक बनाते रहें,"
            " बारी आपकी ही रहती है; वरना बारी अगले खिलाड़ी की हो जाती है।\n"
            "सामान्य खेल: ग्रिड भर जाने पर सबसे अधिक SOS बनाने वाला जीतता है; सबसे अधिक"
            " अंक बराबर हों तो खेल बराबरी पर छूटता है।\n"
            "सरल खेल: जो सबसे पहले SOS बनाए, वह उसी समय जीत जाता है; कोई SOS बने बिना"
            " ग्रिड भर जाए तो खेल बराबरी पर छूटता है।"
        ),
    },
    "player": {"en": "Player {number}", "vi": "Người chơi {number}", "hi": "खिलाड़ी {number}"},
    # The full-screen game (sosgame.tui).
    "tui.header": {
        "en": "SOS · {mode} mode · {rows}x{cols} board",
        "vi": "SOS · chế độ {mode} · bàn {rows}x{cols}",
        "hi": "SOS · {mode} खेल · {rows}x{cols} बोर्ड",
    },
    "tui.new_game": {"en": "New game", "vi": "Ván mới", "hi": "नया खेल"},
    "tui.size": {"en": "Board size", "vi": "Kích thước bàn", "hi": "बोर्ड का आकार"},
    "tui.rectangular": {"en": "Rectangular", "vi": "Hình chữ nhật", "hi": "आयताकार"},
    "tui.mode": {"en": "Mode", "vi": "Chế độ", "hi": "खेल का प्रकार"},
    "tui.players": {"en": "Players", "vi": "Số người chơi", "hi": "खिलाड़ियों की संख्या"},
    "tui.first": {"en": "Who starts", "vi": "Ai đi trước", "hi": "पहली चाल किसकी"},
    "tui.language": {"en": "Language", "vi": "Ngôn ngữ", "hi": "भाषा"},
    "tui.start": {"en": "Start the game", "vi": "Bắt đầu chơi", "hi": "खेल शुरू करें"},
    "tui.kind.person": {"en": "Person", "vi": "Người", "hi": "व्यक्ति"},
    "tui.kind.random": {
        "en": "Computer: random",
        "vi": "Máy: ngẫu nhiên",
        "hi": "कंप्यूटर: बेतरतीब",
    },
    "tui.kind.easy": {"en": "Computer: easy", "vi": "Máy: dễ", "hi": "कंप्यूटर: आसान"},
    "tui.kind.medium": {
        "en": "Computer: medium",
        "vi": "Máy: trung bình",
        "hi": "कंप्यूटर: मध्यम",
    },
    "tui.kind.hard": {"en": "Computer: hard", "vi": "Máy: khó", "hi": "कंप्यूटर: कठिन"},
    "tui.kind.perfect": {
        "en": "Computer: perfect",
        "vi": "Máy: hoàn hảo",
        "hi": "कंप्यूटर: अचूक",
    },
    "tui.level.random": {
        "en": "computer, random",
        "vi": "máy, ngẫu nhiên",
        "hi": "कंप्यूटर, बेतरतीब",
    },
    "tui.level.easy": {"en": "computer, easy", "vi": "máy, mức dễ", "hi": "कंप्यूटर, आसान"},
    "tui.level.medium": {
        "en": "computer, medium",
        "vi": "máy, mức trung bình",
        "hi": "कंप्यूटर, मध्यम",
    },
    "tui.level.hard": {"en": "computer, hard", "vi": "máy, mức khó", "hi": "कंप्यूटर, कठिन"},
    "tui.level.perfect": {
        "en": "computer, perfect",
        "vi": "máy, mức hoàn hảo",
        "hi": "कंप्यूटर, अचूक",
    },
    "tui.computer": {"en": "Computer {number}", "vi": "Máy {number}", "hi": "कंप्यूटर {number}"},
    "tui.bad_size": {
        "en": "Each side of the board must be a whole number from {low} to {high}.",
        "vi": "Mỗi cạnh của bàn phải là một số nguyên từ {low} đến {high}.",
        "hi": "बोर्ड की हर भुजा {low} से {high} तक की कोई पूर्ण संख्या होनी चाहिए।",
    },
    "tui.bad_name": {
        "en": "Player {number} needs a name (at most {most} characters).",
        "vi": "Người chơi {number} cần có tên (tối đa {most} ký tự).",
        "hi": "खिलाड़ी {number} का नाम लिखें (अधिकतम {most} अक्षर)।",
    },
    "tui.ai_missing": {
        "en": "This installation has no computer players: every seat must be a person.",
        "vi": "Bản cài đặt này không có người chơi máy: mọi người chơi đều phải là người.",
        "hi": "इस इंस्टॉलेशन में कंप्यूटर खिलाड़ी नहीं हैं: हर खिलाड़ी कोई व्यक्ति ही होना चाहिए।",
    },
    "tui.level_missing": {
        "en": "This computer level is not available yet: {level}.",
        "vi": "Mức chơi này của máy hiện chưa có: {level}.",
        "hi": "कंप्यूटर का यह स्तर अभी उपलब्ध नहीं है: {level}।",
    },
    "tui.scores_heading": {"en": "Scores", "vi": "Điểm", "hi": "अंक"},
    "tui.moves_heading": {"en": "Moves", "vi": "Các nước đi", "hi": "चालें"},
    "tui.extra_turn": {"en": "EXTRA TURN", "vi": "THÊM LƯỢT", "hi": "अतिरिक्त चाल"},
    "tui.thinking": {
        "en": "{name} is thinking…",
        "vi": "{name} đang suy nghĩ…",
        "hi": "{name} सोच रहा है…",
    },
    "tui.game_over": {
        "en": "The game is over. Press u to undo, n for a new game, q to quit.",
        "vi": "Ván đấu đã kết thúc. Nhấn u để hủy nước, n để chơi ván mới, q để thoát.",
        "hi": "खेल समाप्त हो गया। चाल वापस लेने के लिए u, नए खेल के लिए n और बाहर निकलने के लिए q दबाएँ।",
    },
    "tui.wait_computer": {
        "en": "Please wait: {name} (the computer) is to move.",
        "vi": "Xin chờ: đang đến lượt {name} (máy).",
        "hi": "कृपया रुकिए: अभी {name} (कंप्यूटर) की बारी है।",
    },
    "tui.computer_failed": {
        "en": "{name} could not choose a move: {error}",
        "vi": "{name} không chọn được nước đi: {error}",
        "hi": "{name} कोई चाल नहीं चुन सका: {error}",
    },
    "tui.choose_letter": {
        "en": "Cell {cell}: press s or o, or click Write S or Write O.",
        "vi": "Ô {cell}: nhấn s hoặc o, hoặc bấm nút Viết S hay Viết O.",
        "hi": 'खाना {cell}: s या o दबाएँ, या "S लिखें" या "O लिखें" बटन पर क्लिक करें।',
    },
    "tui.write": {"en": "Write {letter}", "vi": "Viết {letter}", "hi": "{letter} लिखें"},
    "tui.redone": {
        "en": "Played again: {action}.",
        "vi": "Đã đi lại: {action}.",
        "hi": "फिर से चली गई: {action}।",
    },
    "tui.nothing_to_redo": {
        "en": "There is nothing to redo.",
        "vi": "Không có nước nào để đi lại.",
        "hi": "फिर से चलने के लिए कुछ नहीं है।",
    },
    "tui.hint": {
        "en": "Hint: {move} (marked on the board).",
        "vi": "Gợi ý: {move} (đã đánh dấu trên bàn).",
        "hi": "सुझाव: {move} (बोर्ड पर चिह्नित)।",
    },
    "tui.hint_thinking": {
        "en": "Looking for a hint…",
        "vi": "Đang tìm gợi ý…",
        "hi": "सुझाव ढूँढा जा रहा है…",
    },
    "tui.no_hint": {
        "en": "No hint is available: {error}",
        "vi": "Không có gợi ý: {error}",
        "hi": "सुझाव नहीं मिल सका: {error}",
    },
    "tui.board_too_big": {
        "en": "This board needs a terminal of {width}x{height} characters: scroll to see the"
        " rest, or enlarge the terminal.",
        "vi": "Bàn này cần cửa sổ dòng lệnh cỡ {width}x{height} ký tự: hãy cuộn để xem phần"
        " còn lại, hoặc phóng to cửa sổ.",
        "hi": "इस बोर्ड के लिए {width}x{height} अक्षरों का टर्मिनल चाहिए: बाकी हिस्सा देखने के"
        " लिए स्क्रॉल करें, या टर्मिनल बड़ा करें।",
    },
    "tui.resigned_tag": {"en": "(resigned)", "vi": "(đã xin thua)", "hi": "(हार मान ली)"},
    "tui.save_title": {
        "en": "Save the game as a record file",
        "vi": "Lưu ván đấu thành tệp biên bản",
        "hi": "खेल को रिकॉर्ड फ़ाइल में सहेजें",
    },
    "tui.load_title": {
        "en": "Open a record file",
        "vi": "Mở tệp biên bản",
        "hi": "रिकॉर्ड फ़ाइल खोलें",
    },
    "tui.file": {"en": "File name", "vi": "Tên tệp", "hi": "फ़ाइल का नाम"},
    "tui.save": {"en": "Save", "vi": "Lưu", "hi": "सहेजें"},
    "tui.cancel": {"en": "Cancel", "vi": "Hủy", "hi": "रद्द करें"},
    "tui.continue": {"en": "Continue playing", "vi": "Chơi tiếp", "hi": "आगे खेलें"},
    "tui.replay": {"en": "Replay", "vi": "Xem lại", "hi": "दोबारा देखें"},
    "tui.loaded": {
        "en": "Opened {path} ({count} moves).",
        "vi": "Đã mở {path} ({count} nước đi).",
        "hi": "{path} खोली गई ({count} चालें)।",
    },
    "tui.load_failed": {
        "en": "Could not open the record: {error}",
        "vi": "Không mở được biên bản: {error}",
        "hi": "रिकॉर्ड खोला नहीं जा सका: {error}",
    },
    "tui.replay_title": {
        "en": "Replay · move {ply} of {total}",
        "vi": "Xem lại · nước {ply}/{total}",
        "hi": "दोबारा देखें · {total} में से चाल {ply}",
    },
    "tui.replay_at_start": {
        "en": "The start of the game: press → to step forward.",
        "vi": "Đầu ván: nhấn → để đi tới.",
        "hi": "खेल की शुरुआत: आगे बढ़ने के लिए → दबाएँ।",
    },
    "tui.help_title": {"en": "Keys", "vi": "Các phím", "hi": "कुंजियाँ"},
    "tui.help_game": {"en": "Playing", "vi": "Khi chơi", "hi": "खेलते समय"},
    "tui.help_replay": {
        "en": "Replaying a record",
        "vi": "Khi xem lại biên bản",
        "hi": "रिकॉर्ड दोबारा देखते समय",
    },
    "tui.help_mouse": {
        "en": "With the mouse: click a cell, then click Write S or Write O.",
        "vi": "Dùng chuột: bấm vào một ô, rồi bấm Viết S hoặc Viết O.",
        "hi": 'माउस से: किसी खाने पर क्लिक करें, फिर "S लिखें" या "O लिखें" बटन पर क्लिक करें।',
    },
    "tui.rules_title": {"en": "Rules", "vi": "Luật chơi", "hi": "खेल के नियम"},
    "tui.close_page": {
        "en": "Press Esc to close.",
        "vi": "Nhấn Esc để đóng.",
        "hi": "बंद करने के लिए Esc दबाएँ।",
    },
    "tui.language_set": {"en": "Language: {name}", "vi": "Ngôn ngữ: {name}", "hi": "भाषा: {name}"},
    "tui.key.move": {"en": "move the cursor", "vi": "di chuyển con trỏ", "hi": "कर्सर हिलाएँ"},
    "tui.key.write": {"en": "write S or O", "vi": "viết S hoặc O", "hi": "S या O लिखें"},
    "tui.key.undo": {"en": "undo", "vi": "hủy nước", "hi": "चाल वापस लें"},
    "tui.key.redo": {"en": "redo", "vi": "đi lại", "hi": "फिर से चलें"},
    "tui.key.resign": {"en": "resign", "vi": "xin thua", "hi": "हार मानें"},
    "tui.key.hint": {"en": "hint", "vi": "gợi ý", "hi": "सुझाव"},
    "tui.key.save": {"en": "save the game", "vi": "lưu ván đấu", "hi": "खेल सहेजें"},
    "tui.key.load": {"en": "open a record", "vi": "mở biên bản", "hi": "रिकॉर्ड खोलें"},
    "tui.key.replay": {
        "en": "replay this game",
        "vi": "xem lại ván này",
        "hi": "यह खेल दोबारा देखें",
    },
    "tui.key.new": {"en": "new game", "vi": "ván mới", "hi": "नया खेल"},
    "tui.key.language": {"en": "change the language", "vi": "đổi ngôn ngữ", "hi": "भाषा बदलें"},
    "tui.key.help": {"en": "help", "vi": "trợ giúp", "hi": "सहायता"},
    "tui.key.rules": {"en": "rules", "vi": "luật chơi", "hi": "नियम"},
    "tui.key.quit": {"en": "quit", "vi": "thoát", "hi": "बाहर निकलें"},
    "tui.key.back": {"en": "one move back", "vi": "lùi một nước", "hi": "एक चाल पीछे"},
    "tui.key.forward": {"en": "one move forward", "vi": "tiến một nước", "hi": "एक चाल आगे"},
    "tui.key.start": {"en": "to the start", "vi": "về đầu ván", "hi": "शुरुआत पर"},
    "tui.key.end": {"en": "to the end", "vi": "đến cuối ván", "hi": "अंत पर"},
    "tui.key.continue": {
        "en": "play on from here",
        "vi": "chơi tiếp từ đây",
        "hi": "यहाँ से आगे खेलें",
    },
    "tui.key.close": {"en": "close", "vi": "đóng", "hi": "बंद करें"},
    "tui.key.next_field": {"en": "next field", "vi": "mục tiếp theo", "hi": "अगला विकल्प"},
    "tui.key.start_game": {"en": "start", "vi": "bắt đầu", "hi": "शुरू करें"},
    "tui.key.return": {
        "en": "back to the game",
        "vi": "trở lại ván đấu",
        "hi": "खेल पर वापस",
    },
    "tui.confirm_resign": {
        "en": "Press x again to resign for {name}.",
        "vi": "Nhấn x lần nữa để {name} xin thua.",
        "hi": "{name} की ओर से हार मानने के लिए x फिर से दबाएँ।",
    },
    "tui.not_a_terminal": {
        "en": "not a terminal, so the line-mode game starts (as with --plain).",
        "vi": "đây không phải cửa sổ dòng lệnh, nên trò chơi chế độ dòng lệnh sẽ bắt đầu"
        " (như với --plain).",
        "hi": "यह टर्मिनल नहीं है, इसलिए पंक्ति-दर-पंक्ति वाला खेल शुरू हो रहा है (जैसे --plain के साथ)।",
    },
    "tui.no_textual": {
        "en": "The full-screen game needs Textual: pip install 'sosgame[tui]'"
        " (or play with --plain).",
        "vi": "Trò chơi toàn màn hình cần Textual: pip install 'sosgame[tui]'"
        " (hoặc chơi với --plain).",
        "hi": "पूरी स्क्रीन वाले खेल के लिए Textual चाहिए: pip install 'sosgame[tui]'"
        " (या --plain के साथ खेलें)।",
    },
    "web.title": {"en": "SOS", "vi": "SOS", "hi": "SOS"},
    "web.language": {"en": "Language", "vi": "Ngôn ngữ", "hi": "भाषा"},
    "web.new_game": {"en": "New game", "vi": "Ván mới", "hi": "नया खेल"},
    "web.rows": {"en": "Rows", "vi": "Số hàng", "hi": "पंक्तियाँ"},
    "web.cols": {"en": "Columns", "vi": "Số cột", "hi": "स्तंभ"},
    "web.mode": {"en": "Mode", "vi": "Chế độ", "hi": "खेल का प्रकार"},
    "web.kind": {"en": "Where", "vi": "Cách chơi", "hi": "कहाँ खेलें"},
    "web.kind.local": {
        "en": "Everyone at this screen",
        "vi": "Mọi người cùng một màn hình",
        "hi": "सभी इसी स्क्रीन पर",
    },
    "web.kind.online": {
        "en": "Online with friends",
        "vi": "Chơi trực tuyến với bạn bè",
        "hi": "दोस्तों के साथ ऑनलाइन",
    },
    "web.seats": {"en": "Players", "vi": "Số người chơi", "hi": "खिलाड़ियों की संख्या"},
    "web.seat_name": {
        "en": "Name of player {number}",
        "vi": "Tên người chơi {number}",
        "hi": "खिलाड़ी {number} का नाम",
    },
    "web.seat_player": {
        "en": "Who plays seat {number}",
        "vi": "Ai chơi ở vị trí {number}",
        "hi": "स्थान {number} पर कौन खेलेगा",
    },
    "web.player.human": {"en": "person", "vi": "người", "hi": "व्यक्ति"},
    "web.player.random": {
        "en": "computer, random",
        "vi": "máy, ngẫu nhiên",
        "hi": "कंप्यूटर, बेतरतीब",
    },
    "web.player.easy": {"en": "computer, easy", "vi": "máy, dễ", "hi": "कंप्यूटर, आसान"},
    "web.player.medium": {
        "en": "computer, medium",
        "vi": "máy, trung bình",
        "hi": "कंप्यूटर, मध्यम",
    },
    "web.player.hard": {"en": "computer, hard", "vi": "máy, khó", "hi": "कंप्यूटर, कठिन"},
    "web.player.perfect": {
        "en": "computer, perfect",
        "vi": "máy, hoàn hảo",
        "hi": "कंप्यूटर, अचूक",
    },
    "web.clock": {
        "en": "Play with a clock",
        "vi": "Chơi có tính giờ",
        "hi": "घड़ी के साथ खेलें",
    },
    "web.clock_minutes": {
        "en": "Minutes per player",
        "vi": "Số phút cho mỗi người",
        "hi": "हर खिलाड़ी के लिए मिनट",
    },
    "web.clock_increment": {
        "en": "Seconds added per move",
        "vi": "Số giây cộng thêm mỗi nước",
        "hi": "हर चाल पर जुड़ने वाले सेकंड",
    },
    "web.start": {"en": "Start the game", "vi": "Bắt đầu ván", "hi": "खेल शुरू करें"},
    "web.open_games": {
        "en": "Games waiting for players",
        "vi": "Ván đang chờ người chơi",
        "hi": "खिलाड़ियों की राह देखते खेल",
    },
    "web.no_open_games": {
        "en": "No game is waiting for players.",
        "vi": "Không có ván nào đang chờ người chơi.",
        "hi": "कोई खेल खिलाड़ियों की राह नहीं देख रहा।",
    },
    "web.join_seat": {"en": "Play as {name}", "vi": "Chơi thay {name}", "hi": "{name} बनकर खेलें"},
    "web.archive": {"en": "Finished games", "vi": "Ván đã kết thúc", "hi": "समाप्त खेल"},
    "web.no_archive": {
        "en": "No game has finished yet.",
        "vi": "Chưa có ván nào kết thúc.",
        "hi": "अभी तक कोई खेल समाप्त नहीं हुआ।",
    },
    "web.replay": {"en": "Replay", "vi": "Xem lại", "hi": "दोबारा देखें"},
    "web.download": {
        "en": "Download the record",
        "vi": "Tải biên bản về",
        "hi": "रिकॉर्ड डाउनलोड करें",
    },
    "web.upload": {
        "en": "Open a record",
        "vi": "Mở một biên bản",
        "hi": "रिकॉर्ड खोलें",
    },
    "web.upload_file": {
        "en": "Record file (to replay or continue)",
        "vi": "Tệp biên bản (để xem lại hoặc chơi tiếp)",
        "hi": "रिकॉर्ड फ़ाइल (दोबारा देखने या आगे खेलने के लिए)",
    },
    "web.upload_failed": {
        "en": "This record cannot be opened: {message}",
        "vi": "Không mở được biên bản này: {message}",
        "hi": "यह रिकॉर्ड नहीं खुल सका: {message}",
    },
    "web.rules": {"en": "Rules", "vi": "Luật chơi", "hi": "नियम"},
    "web.home": {"en": "Start page", "vi": "Trang đầu", "hi": "मुख्य पृष्ठ"},
    "web.connecting": {"en": "Connecting…", "vi": "Đang kết nối…", "hi": "जुड़ रहे हैं…"},
    "web.reconnecting": {
        "en": "The connection was lost. Reconnecting…",
        "vi": "Mất kết nối. Đang kết nối lại…",
        "hi": "कनेक्शन टूट गया। फिर से जुड़ रहे हैं…",
    },
    "web.no_game": {
        "en": "There is no such game.",
        "vi": "Không có ván đấu này.",
        "hi": "ऐसा कोई खेल नहीं है।",
    },
    "web.game_title": {
        "en": "SOS, {mode} mode, {rows}x{cols}",
        "vi": "SOS, chế độ {mode}, bàn {rows}x{cols}",
        "hi": "SOS, {mode} खेल, {rows}x{cols}",
    },
    "web.board": {
        "en": "SOS board, {rows} rows by {cols} columns",
        "vi": "Bàn SOS, {rows} hàng và {cols} cột",
        "hi": "SOS बोर्ड, {rows} पंक्तियाँ और {cols} स्तंभ",
    },
    "web.cell_empty": {"en": "{cell}, empty", "vi": "{cell}, trống", "hi": "{cell}, खाली"},
    "web.cell_letter": {
        "en": "{cell}, {letter}",
        "vi": "{cell}, {letter}",
        "hi": "{cell}, {letter}",
    },
    "web.pick_letter": {
        "en": "Write in {cell}:",
        "vi": "Viết vào ô {cell}:",
        "hi": "खाने {cell} में लिखें:",
    },
    "web.cancel": {"en": "Cancel", "vi": "Hủy", "hi": "रद्द करें"},
    "web.extra_turn": {
        "en": "SOS! {name} scored and moves again.",
        "vi": "SOS! {name} ghi điểm và được đi tiếp.",
        "hi": "SOS! {name} ने अंक बनाया, अगली चाल भी {name} की है।",
    },
    "web.players": {"en": "Players", "vi": "Người chơi", "hi": "खिलाड़ी"},
    "web.moves": {"en": "Moves", "vi": "Các nước đi", "hi": "चालें"},
    "web.points": {
        "en": "{name}: {count} points",
        "vi": "{name}: {count} điểm",
        "hi": "{name}: {count} अंक",
    },
    "web.you": {"en": "you", "vi": "bạn", "hi": "आप"},
    "web.resigned": {"en": "resigned", "vi": "đã xin thua", "hi": "हार मान ली"},
    "web.thinking": {"en": "thinking…", "vi": "đang nghĩ…", "hi": "सोच रहा है…"},
    "web.connected": {"en": "connected", "vi": "đang kết nối", "hi": "जुड़ा हुआ"},
    "web.not_connected": {"en": "away", "vi": "vắng mặt", "hi": "अनुपस्थित"},
    "web.free_seat": {"en": "free seat", "vi": "còn trống", "hi": "खाली स्थान"},
    "web.spectators": {
        "en": "Watching: {count}",
        "vi": "Người xem: {count}",
        "hi": "देखने वाले: {count}",
    },
    "web.waiting": {
        "en": "Waiting for every player to take a seat.",
        "vi": "Đang chờ mọi người chơi vào chỗ.",
        "hi": "सभी खिलाड़ियों के जुड़ने की राह देखी जा रही है।",
    },
    "web.undo": {"en": "Undo", "vi": "Đi lại", "hi": "चाल वापस लें"},
    "web.redo": {"en": "Redo", "vi": "Làm lại", "hi": "चाल दोबारा करें"},
    "web.hint": {"en": "Hint", "vi": "Gợi ý", "hi": "संकेत"},
    "web.hint_is": {"en": "Hint: {move}", "vi": "Gợi ý: {move}", "hi": "संकेत: {move}"},
    "web.resign": {"en": "Resign", "vi": "Xin thua", "hi": "हार मानें"},
    "web.resign_confirm": {
        "en": "Resign this game?",
        "vi": "Bạn có chắc muốn xin thua ván này?",
        "hi": "क्या आप सचमुच यह खेल छोड़कर हार मानना चाहते हैं?",
    },
    "web.rematch": {"en": "Rematch", "vi": "Đấu lại", "hi": "फिर से खेलें"},
    "web.rematch_offered": {
        "en": "A rematch has started: open it",
        "vi": "Ván đấu lại đã bắt đầu: mở ván",
        "hi": "दोबारा खेल शुरू हो गया है: उसे खोलें",
    },
    "web.invite": {"en": "Invite links", "vi": "Đường dẫn mời", "hi": "निमंत्रण लिंक"},
    "web.invite_seat": {
        "en": "Player {number} ({name})",
        "vi": "Người chơi {number} ({name})",
        "hi": "खिलाड़ी {number} ({name})",
    },
    "web.spectator_link": {"en": "Spectators", "vi": "Người xem", "hi": "दर्शक"},
    "web.copy": {"en": "Copy", "vi": "Sao chép", "hi": "कॉपी करें"},
    "web.copied": {"en": "Copied", "vi": "Đã sao chép", "hi": "कॉपी हो गया"},
    "web.join_title": {
        "en": "Take seat {number} in this game",
        "vi": "Vào chỗ số {number} trong ván này",
        "hi": "इस खेल में स्थान {number} लें",
    },
    "web.your_name": {"en": "Your name", "vi": "Tên của bạn", "hi": "आपका नाम"},
    "web.take_seat": {"en": "Take the seat", "vi": "Vào chỗ", "hi": "स्थान लें"},
    "web.seat_taken": {
        "en": "This seat is already taken.",
        "vi": "Chỗ này đã có người.",
        "hi": "यह स्थान पहले ही लिया जा चुका है।",
    },
    "web.watch": {"en": "Watch the game", "vi": "Xem ván đấu", "hi": "खेल देखें"},
    "web.replay_title": {"en": "Replay", "vi": "Xem lại ván đấu", "hi": "खेल दोबारा देखें"},
    "web.ply_of": {
        "en": "Move {ply} of {total}",
        "vi": "Nước {ply} trên {total}",
        "hi": "{total} में से चाल {ply}",
    },
    "web.first": {"en": "Start", "vi": "Đầu ván", "hi": "शुरुआत"},
    "web.prev": {"en": "Back", "vi": "Lùi", "hi": "पीछे"},
    "web.next": {"en": "Forward", "vi": "Tới", "hi": "आगे"},
    "web.last": {"en": "End", "vi": "Cuối ván", "hi": "अंत"},
    "web.reason.time": {
        "en": "{names} ran out of time",
        "vi": "{names} đã hết giờ",
        "hi": "{names} का समय समाप्त हो गया",
    },
    "web.error.not_your_turn": {
        "en": "It is not your turn.",
        "vi": "Chưa đến lượt bạn.",
        "hi": "अभी आपकी बारी नहीं है।",
    },
    "web.error.not_your_seat": {
        "en": "Only that seat's player may do that.",
        "vi": "Chỉ người chơi ở chỗ đó mới được làm vậy.",
        "hi": "यह केवल उसी स्थान का खिलाड़ी कर सकता है।",
    },
    "web.error.illegal_move": {
        "en": "That move is not allowed.",
        "vi": "Nước đi đó không hợp lệ.",
        "hi": "यह चाल मान्य नहीं है।",
    },
    "web.error.game_over": {
        "en": "The game is over.",
        "vi": "Ván đấu đã kết thúc.",
        "hi": "खेल समाप्त हो चुका है।",
    },
    "web.error.bad_invite": {
        "en": "This seat is taken only with its invite link; a spectator link gives no seat.",
        "vi": "Chỉ có thể nhận chỗ này bằng liên kết mời; liên kết xem không cho chỗ ngồi.",
        "hi": "यह स्थान केवल उसके निमंत्रण लिंक से मिलता है; दर्शक लिंक से स्थान नहीं मिलता।",
    },
    "web.error.too_many_games": {
        "en": "Too many games with computer players are running; try again later.",
        "vi": "Đang có quá nhiều ván với máy; hãy thử lại sau.",
        "hi": "कंप्यूटर खिलाड़ियों वाले बहुत सारे खेल चल रहे हैं; बाद में फिर कोशिश करें।",
    },
    "web.error.too_many_connections": {
        "en": "Too many connections; try again later.",
        "vi": "Quá nhiều kết nối; hãy thử lại sau.",
        "hi": "बहुत सारे कनेक्शन हैं; बाद में फिर कोशिश करें।",
    },
    "web.move_queued": {
        "en": "Not connected: your move {move} will be sent when the connection is back.",
        "vi": "Chưa kết nối: nước đi {move} sẽ được gửi khi kết nối trở lại.",
        "hi": "कनेक्शन नहीं है: आपकी चाल {move} कनेक्शन लौटने पर भेजी जाएगी।",
    },
    "web.move_dropped": {
        "en": "Your move {move} was not sent: the game went on while you were disconnected.",
        "vi": "Nước đi {move} chưa được gửi: ván đã tiếp tục khi bạn mất kết nối.",
        "hi": "आपकी चाल {move} नहीं भेजी गई: आपके डिस्कनेक्ट रहते खेल आगे बढ़ गया।",
    },
    "web.public": {
        "en": "List the game publicly: anyone may take a free seat",
        "vi": "Công khai ván: ai cũng có thể nhận chỗ trống",
        "hi": "खेल सार्वजनिक सूची में रखें: कोई भी खाली स्थान ले सकता है",
    },
    "web.invite_missing": {
        "en": "This link has no invite: ask a player of the game for the seat's invite link.",
        "vi": "Liên kết này không có lời mời: hãy xin người chơi liên kết mời của chỗ này.",
        "hi": "इस लिंक में निमंत्रण नहीं है: खेल के किसी खिलाड़ी से इस स्थान का लिंक माँगें।",
    },
    "web.rematch_play": {
        "en": "A rematch has started: play it",
        "vi": "Ván đấu lại đã bắt đầu: vào chơi",
        "hi": "दोबारा खेल शुरू हो गया है: खेलें",
    },
    "web.error.stale": {
        "en": "The board changed before your move arrived; look again.",
        "vi": "Bàn cờ đã thay đổi trước khi nước đi của bạn tới; hãy xem lại.",
        "hi": "आपकी चाल पहुँचने से पहले बोर्ड बदल गया; फिर से देखें।",
    },
    "web.error.waiting": {
        "en": "The game has not started: not every seat is taken.",
        "vi": "Ván chưa bắt đầu: vẫn còn chỗ trống.",
        "hi": "खेल शुरू नहीं हुआ है: अभी सभी स्थान नहीं भरे।",
    },
    "web.error.rate_limited": {
        "en": "Too many actions at once; slow down.",
        "vi": "Quá nhiều thao tác cùng lúc; hãy chậm lại.",
        "hi": "एक साथ बहुत सारी क्रियाएँ; थोड़ा धीरे करें।",
    },
    "web.error.unavailable": {
        "en": "The computer player is not available.",
        "vi": "Người chơi máy hiện không dùng được.",
        "hi": "कंप्यूटर खिलाड़ी अभी उपलब्ध नहीं है।",
    },
    "web.error.other": {
        "en": "Not done: {message}",
        "vi": "Chưa thực hiện được: {message}",
        "hi": "नहीं हो सका: {message}",
    },
}
