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
}
