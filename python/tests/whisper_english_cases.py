"""Fresh random inputs for Whisper's English normaliser: real English sentences (the shared WMT English sides)
with spoken numbers, currencies, percentages, ordinals, fillers, contractions, titles, bracketed noise and British
spellings injected, plus free sequences of number words and digits that drive the number parser through its odd
states. Used by python/tests/test_whisper.py and scripts/diff_whisper_english.py."""
import json
import os
import random

ONES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
MULTIPLIERS = ["hundred", "thousand", "million", "billion", "trillion", "quadrillion", "decillion"]
NUMBER_WORDS = (ONES + TENS + MULTIPLIERS + ["o", "oh", "zero", "and", "double", "triple", "point", "minus", "plus",
                                            "negative", "positive", "dollar", "dollars", "cent", "cents", "pound",
                                            "pounds", "euro", "euros", "per", "cent", "percent", "a", "half"] +
                [w + "s" for w in ONES] + ["sixes", "first", "second", "third", "fourth", "fifth", "ninth", "nineth",
                                          "twelfth", "zeroth", "eighth", "twentieth", "thirties", "nineties",
                                          "hundredth", "thousands", "millionth", "hundreds"])
DIGITS = ["0", "1", "5", "7", "10", "12", "19", "20", "25", "99", "100", "1000", "2024", "1960", "3.5", "0.5", "1.0",
          "1.50", "007", "1,000", "10,000,000", "1,2,3", "$5", "$0.07", "£3.50", "€0.99", "¢5", "$20", "5%", "50 %",
          "1st", "2nd", "3rd", "21 st", "4th", "1960s", "1s", "١٢٣", "٣.٥", "3.", ".5", "1.2.3.4", "$1", "-5", "+2",
          "abc123def", "x2", "2x", "12:30", "3/4", "5 s", "7 th"]
FILLERS = ["um", "uh", "hmm", "mm", "mhm", "mmm", "Um,", "UH", "um-hmm", "uhm", "hmmm"]
CONTRACTIONS = ["won't", "can't", "let's", "ain't", "y'all", "wanna", "kinda", "sorta", "dunno", "gotta", "gonna",
                "i'ma", "imma", "woulda", "coulda", "shoulda", "cause", "'cause", "ma'am", "Mr.", "Mrs", "St.", "Dr",
                "Prof.", "capt", "Gov.", "Gen", "Sen.", "Rep", "Pres", "Rev.", "Hon", "asst", "assoc", "Lt.", "Col",
                "Jr.", "Sr", "esq", "I'd been", "she's been", "he'd gone", "it's gone", "we'd done", "he's got",
                "isn't", "you're", "it's", "I'd", "we'll", "don't", "I've", "I'm", "o'clock", "rock'n'roll",
                "she 's", "I ’m", "it’s", "Mr", "mister"]
NOISE = ["[noise]", "[LAUGHTER]", "<unk>", "(laughs)", "(inaudible)", "()", "[", "]", "(", ")", "<", ">", "[a(b]c)"]
PUNCT = [",", ".", "...", "?", "!", "—", "-", "'", "’", '"', ";", ":", "%", "$", "£", "€", "¢", "&", "@", "#", "/"]
OTHER = ["café", "naïve", "Æsir", "straße", "Łódź", "ﬁ", "½", "²", "Ｈｅｌｌｏ", "ΣΑΣ", "İstanbul", "x_y", "e\u0301",
         "\u00a0", "\t", "\n", "  ", "\u2009", "😀", "東京"]


def spellings():
    """British spellings of Whisper's table (from the installed whisper-normalizer)."""
    import whisper_normalizer

    path = os.path.join(os.path.dirname(whisper_normalizer.__file__), "normalizers", "english.json")
    with open(path, encoding="utf-8") as f:
        return list(json.load(f))


def english_sentences(shared, limit=4000):
    """The English sides of the shared WMT data: sources of en-*, hypotheses and references of *-en."""
    out = []
    for pair, fields in [("en-de", ["src"]), ("en-ja", ["src"]), ("en-zh", ["src"]), ("de-en", ["hyp", "ref"]),
                         ("zh-en", ["hyp", "ref"])]:
        path = os.path.join(shared, "data", "wmt", f"{pair}.jsonl")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    row = json.loads(line)
                    out += [row[k] for k in fields if row.get(k)]
    random.Random(0).shuffle(out)
    return out[:limit]


def spoken_number(rng):
    """A number as people say it."""
    kind = rng.randrange(9)
    if kind == 0:
        n = rng.choice([rng.randrange(100), rng.randrange(1000), rng.randrange(10 ** 6), rng.randrange(10 ** 12)])
        return say(n, rng)
    if kind == 1:  # years
        return f"{rng.choice(ONES[9:] + ['twenty'])} {rng.choice(TENS + ['oh ' + rng.choice(ONES[:9]), 'hundred'])}"
    if kind == 2:  # digit by digit, nominal
        return " ".join(rng.choice(ONES[:9] + ["oh", "zero", "double " + rng.choice(ONES[:9]), "triple oh"])
                        for _ in range(rng.randint(2, 6)))
    if kind == 3:  # decimals
        return f"{say(rng.randrange(100), rng)} point {' '.join(rng.choice(ONES[:9] + ['zero', 'oh']) for _ in range(rng.randint(1, 3)))}"
    if kind == 4:  # currencies
        cur = rng.choice(["dollars", "dollar", "pounds", "euros", "euro", "cents", "pound"])
        tail = rng.choice(["", f" and {say(rng.randrange(1, 100), rng)} cents", f" {say(rng.randrange(1, 100), rng)}"])
        return f"{say(rng.randrange(1, 10 ** rng.randint(1, 7)), rng)} {cur}{tail}"
    if kind == 5:  # percentages
        return f"{say(rng.randrange(101), rng)} {rng.choice(['percent', 'per cent', 'per', 'percentage'])}"
    if kind == 6:  # ordinals, plurals
        return rng.choice([f"the {rng.choice(TENS)} {rng.choice(['first', 'second', 'third', 'fifth', 'ninth'])}",
                           f"the nineteen {rng.choice(['sixties', 'seventies', 'nineties', 'twenties'])}",
                           f"{rng.choice(ONES)} {rng.choice(['hundredth', 'thousandth', 'millionth', 'hundreds', 'thousands'])}",
                           f"{rng.choice(ONES)}s and {rng.choice(TENS)}ies", "sixes and sevens", "the twelfth"])
    if kind == 7:  # fractions and signs
        return rng.choice([f"{say(rng.randrange(1, 20), rng)} and a half", f"{rng.choice(MULTIPLIERS)} and a half",
                           f"minus {say(rng.randrange(100), rng)}", f"plus {rng.choice(ONES)}",
                           f"negative {rng.choice(TENS)} point five", f"{rng.choice(ONES)} point five million",
                           "and a half", f"{rng.choice(['a', 'the'])} {rng.choice(MULTIPLIERS)}"])
    return " ".join(rng.choice(NUMBER_WORDS + DIGITS) for _ in range(rng.randint(1, 8)))


def say(n, rng):
    """`n` in words, with the variations speakers use ("and", "a hundred")."""
    if n < 20:
        return "zero" if n == 0 else ONES[n - 1]
    if n < 100:
        return TENS[n // 10 - 2] + ("" if n % 10 == 0 else " " + ONES[n % 10 - 1])
    for size, name in [(10 ** 9, "billion"), (10 ** 6, "million"), (1000, "thousand"), (100, "hundred")]:
        if n >= size:
            head, rest = divmod(n, size)
            text = f"{say(head, rng)} {name}"
            if rest:
                text += (" and " if rest < 100 and rng.random() < 0.5 else " ") + say(rest, rng)
            return text
    return str(n)


def case(rng, sentences, british):
    """One text: a real sentence with pieces injected, or a free sequence."""
    if not sentences or rng.random() < 0.25:
        words = []
    else:
        words = rng.choice(sentences).split(" ")
    pools = [lambda: spoken_number(rng), lambda: rng.choice(DIGITS), lambda: rng.choice(FILLERS),
             lambda: rng.choice(CONTRACTIONS), lambda: rng.choice(NOISE), lambda: rng.choice(PUNCT),
             lambda: rng.choice(british), lambda: rng.choice(british).capitalize(), lambda: rng.choice(OTHER)]
    for _ in range(rng.randint(1, 6)):
        piece = rng.choice(pools)()
        if rng.random() < 0.15:
            piece = piece.upper()
        words.insert(rng.randint(0, len(words)), piece)
    sep = rng.choice([" ", " ", " ", "", "  "])
    text = sep.join(words) if sep else " ".join(w + rng.choice(["", ",", ".", "", " "]) for w in words)
    return text


def cases(n, shared, seed=None):
    rng = random.Random(seed)
    sentences = english_sentences(shared)
    british = spellings()
    return [case(rng, sentences, british) for _ in range(n)]
