"""Session 36's review (helper rv36): session 35's word lists said once, no answer changed.

1. explain.WARNING_LINE (ex35b) was a knowledge pattern in the orchestration module, with fall-back words that
   knowledge/attribution/search.REPLACED_BY (ex35b) also spells: it lives in attribution/shapes.py beside EXCEPTION_LINE,
   both built from shapes' FALL_BACK and SWITCH_TO; REPLACED_BY's and sentences.USED_INSTEAD's verbs before "X instead"
   are one list (USED_VERBS).
2. sentences.py's "works slowly / badly" words (UNHEALTHY, PRAISE's lookahead) are one list (SLOW_WORDS).
3. The other lists session 35 copied in attribution/sentences.py: "it works" (HEALTHY, PRAISE), the negations (UNHEALTHY,
   NEGATED, INSTALL_FAILS), "only" (UNHEALTHY, ONLY_ONE), Japanese negation (UNHEALTHY, INSTALL_FAILS), a clause's full stop
   (CLAUSE_BREAK, INSTALLED_BREAK).

Each pattern is checked against its text as session 35 left it (written out here) on lines of my own, positives and near
misses: the same matches, spans and groups. benchmarks/compare_matches.py --diff on the training texts: 0 differ.
"""

from __future__ import annotations

import re

from attn_doctor import explain
from attn_doctor.knowledge import attribution
from attn_doctor.knowledge.attribution import search, sentences, shapes
from each_case import each

I = re.IGNORECASE
# the patterns as session 35 left them (87810145), before the shared lists
BEFORE = {
    "WARNING_LINE": (shapes.WARNING_LINE, re.compile(
        r"(?-i:\bWARN(?:ING)?\b|\b[A-Z]\w*Warning\b|^\s*\[?W\d{4}\b)|\bwarnings?\.warn\b|"
        r"(?i:\bfor better performance\b|\bproceeding without\b|\boptimizations will not be enabled\b|"
        r"\bwon'?t be available\b|\bfall(?:s|ing)?[ \t]*back[ \t]+to\b|\bfallback[ \t]+to\b|\busing\b[^\n]{1,40}?\binstead\b|"
        r"\bnot[ \t]+(?:available|installed|found)\b[^\n]{0,40}?[,;:][ \t]*(?:using|use|switching[ \t]+to)\b)")),
    "REPLACED_BY": (search.REPLACED_BY, re.compile(
        r"(?:\b(?:using|use|uses|used|defaulting[ \t]+to|switching[ \t]+to|switched[ \t]+to)[ \t]+(?:the[ \t]+)?"
        r"(?P<a>[^\s,;:.!?()]+(?:[ \t]+[^\s,;:.!?()]+){0,2}?)[ \t]+instead\b(?![ \t]+of\b)|"
        r"\bfall(?:s|ing)?[ \t]*back[ \t]+(?:to|on)[ \t]+(?:the[ \t]+)?(?P<b>[^\s,;:!?()]+(?:[ \t]+[^\s,;:!?()]+){0,2})|"
        r"(?<=[,;:])[ \t]*(?:(?:will|now|so)[ \t]+)?(?:using|use|switching[ \t]+to|defaulting[ \t]+to)[ \t]+(?:the[ \t]+)?"
        r"(?P<c>[^\s,;:.!?()]+(?:[ \t]+[^\s,;:.!?()]+){0,2}))", I)),
    "USED_INSTEAD": (sentences.USED_INSTEAD, re.compile(
        r"\b(?:(?:will|would|now|then)[ \t]+)?(?:using|use|uses|used|defaulting[ \t]+to|switching[ \t]+to|switched[ \t]+to)"
        r"[ \t]+(?:the[ \t]+)?[^\s,;:.!?()]+(?:[ \t]+[^\s,;:.!?()]+){0,2}?[ \t]+instead\b(?![ \t]+of\b)", I)),
    "HEALTHY": (sentences.HEALTHY, re.compile(
        r"\b(?:works?|worked|working (?:properly|fine|well|correctly)|perform(?:s|ed|ing)? (?:well|fine|normally|correctly)|"
        r"(?:is|are|was|were|runs?|ran|seems?) (?:fine|ok|okay|good|normal)|"
        r"fine\b(?![- ]?tun)|no (?:problems?|issues?|errors?)|without (?:any )?(?:problems?|issues?|errors?))\b|"
        r"正常|没问题|没有问题|"
        r"(?<!\w)(?:работает|работают|работало|funktioniert|fonctionne|funciona)(?!\w)|問題なく|問題ない|問題ありません|動きます|"
        r"(?<![\w'-])(?:ok|okay)(?![\w'-])|(?:->|=>|→|:|=)[ \t]*~?\d+(?:\.\d+)?[ \t]*(?:it/s|s/it|its?/sec|tok(?:ens)?/s|samples/s|img/s|fps)\b|"
        r"\bstill[ \t]+(?:load|import|run|work)s?\b", I)),
    "UNHEALTHY": (sentences.UNHEALTHY, re.compile(
        r"\b(?:not|no longer|never|n't|stop\w*|fail\w*|errors?|broken|break\w*|crash\w*|nan|inf|black|"
        r"slow\w*|hang\w*|stuck|freez\w*|issue|problem|bug|only|except|unless|if|whether|anymore)\b|"
        r"n't\b|不|没有?(?!问题)|失败|报错|"
        r"(?<!\w)(?:не|нет|nicht|kein\w*|pas|no|não|nunca|только|nur|seulement|solo|só)(?!\w)|ない|ません|エラー|失敗|黒|"
        r"(?<!\w)(?:медленно|плохо|нестабильно|langsam|schlecht|lento|lenta|lentamente|lentement)(?!\w)", I)),
    "PRAISE": (sentences.PRAISE, re.compile(
        r"\b(?:thanks?|thank you|kudos|(?:is|are|was|were)[ \t]+(?:(?:really|very|so|much|way|a lot|super)[ \t]+)?"
        r"(?:great|awesome|amazing|excellent|fantastic|faster|quicker|quick|fast|helpful|a lifesaver)|"
        r"helps?|helped|speeds?[ \t]+(?:it|things|everything|generation|inference|training)[ \t]+up|"
        r"(?:funktioniert|fonctionne|funciona|работает)\b(?![ \t]+(?:(?:очень|sehr|muy|très|muito|bem)[ \t]+)?(?:медленно|"
        r"плохо|нестабильно|langsam|schlecht|lento|lenta|lentamente|mal|lentement)))|"
        r"正常|没问题|沒問題|没有问题|很好|好用|很快|更快|谢谢|感谢|問題(?:なく|ない|なし)|正常に|ありがとう|速い|速くなり", I)),
    "NEGATED": (sentences.NEGATED, re.compile(r"(?<!\w)(?:не|нет|nicht|kein\w*|ne|pas|no|não|nunca|jamais)(?!\w)", I)),
    "ONLY_ONE": (sentences.ONLY_ONE, re.compile(
        r"(?:(?<![\w-])(?:only|nur|solo|só|seulement|только)(?![\w-])|只有|仅有|仅|唯独|だけ)[ \t]*(?:(?:with|when[ \t]+using|using|"
        r"on|under|mit|con|com|avec|с|用|使用)[ \t]+)?", I)),
    "INSTALL_FAILS": (sentences.INSTALL_FAILS, re.compile(
        r"(?<![A-Za-z])(?:nan|inf|errors?|fail\w*|crash\w*|hang\w*|broken|wrong|garbage|black|not|no|never|n't|only|"
        r"if|unless|whether|cannot|can't|unable|missing|mismatch\w*|incompatible|wrongly|partially|half)(?![A-Za-z])|n't\b|"
        r"报错|错误|失败|崩溃|异常|不|没|未|(?<!\w)(?:не|нет|nicht|kein\w*|pas)(?!\w)|ない|ません|エラー", I)),
    "CLAUSE_BREAK": (sentences.CLAUSE_BREAK, re.compile(
        r"([,;，；、]|(?<!\bi\.e)(?<!\be\.g)[.:!?](?=\s|$)|\bbut\b|\bwhile\b|\bwhereas\b|\band\b|但)", I)),
    "INSTALLED_BREAK": (sentences.INSTALLED_BREAK, re.compile(
        r"([,;，；、()（）]|(?<!\bi\.e)(?<!\be\.g)[.:!?](?=\s|$)|\bbut\b|\bhowever\b|\bwhile\b|\bwhereas\b|\band\b|"
        r"但是?|可是|不过|が、|(?<!\w)(?:но|а|aber|mais|pero|mas)(?!\w))", I)),
}

# lines of my own (none from a fixture): fallback notices, replacements, health and its negations in the languages read,
# "only", clause breaks; near misses beside each (a hyphenated "fall-back", "instead of", words inside longer words)
LINES = [
    "[WARNING] xFormers unavailable on this host, fallback to torch sdpa for the vae",
    "apex not installed; switching to the naive layernorm", "Triton kernels not found: use eager attention",
    "flash_attn isn't available; FALLING BACK ON the math kernel", "sageattention failed to import, falls back to SDPA",
    "FA3 cannot run on sm86, so using flash_attention_2 instead", "we used the xformers wheel instead of building it",
    "not available, defaulting to the flex attention path", "not present — now using SDPA for all layers",
    "Switched to sdpa instead, then it crashed", "uses xformers instead and is fine", "a fall-back to xformers kicked in",
    "the fallbackto path", "FutureWarning: torch.backends.cuda.sdp_kernel() is deprecated", "W1202 12:00:01 warn.cpp:12] x",
    "warnings.warn('Flash attention not available')", "Proceeding without fused kernels for better performance",
    "С xformers всё работает, а с sageattention падает", "mit xformers funktioniert es sehr langsam, mit sage gar nicht",
    "ça fonctionne lentement avec sdpa, pas avec FA2", "con xformers funciona muy mal; con sdpa no funciona",
    "com sage funciona lentos frames, só com xformers", "sdpa работают нормально, xformers работало раньше, не теперь",
    "funcionamento estável, nenhum problema", "keine Fehler mit FA2, nur mit sage nicht", "Kein Problem, jamais vu",
    "только с sageattention чёрный экран", "solo con xformers va bene; nur mit sdpa langsamer", "no, não, nunca, ne",
    "xformers では問題なく動きますが、sage だとエラーになります", "sage ではうまくいきません、黒い画像", "セッションない",
    "sdpa ok, xformers -> 12 it/s, sage crashes", "i.e. xformers works; e.g. FA2 fails. Done: yes! Really? And but while",
    "flash-attn installed (and xformers too), however sdpa fails; но sage тоже, aber nicht FA2, mais pas sdpa, pero mas",
    "只有 sageattention 出黑图，但是 xformers 没问题，可是不过", "nurse solos sonar pasta nonsense kein-problem keinerlei",
]


def test_warning_line_lives_with_the_line_classes():
    assert attribution.WARNING_LINE is shapes.WARNING_LINE
    assert not hasattr(explain, "WARNING_LINE")


def test_the_shared_words_are_in_each_pattern():
    assert shapes.FALL_BACK in shapes.WARNING_LINE.pattern and shapes.FALL_BACK in search.REPLACED_BY.pattern
    assert "|".join(shapes.SWITCH_TO) in shapes.WARNING_LINE.pattern
    assert "|".join(shapes.USED_VERBS) in search.REPLACED_BY.pattern
    assert "|".join(shapes.USED_VERBS) in sentences.USED_INSTEAD.pattern
    assert "|".join(sentences.SLOW_WORDS) in sentences.UNHEALTHY.pattern
    assert "|".join(sentences.SLOW_WORDS) in sentences.PRAISE.pattern
    assert "|".join(sentences.WORKS_WORDS) in sentences.HEALTHY.pattern
    assert "|".join(sentences.WORKS_WORDS) in sentences.PRAISE.pattern
    for rx in (sentences.UNHEALTHY, sentences.NEGATED, sentences.INSTALL_FAILS):
        assert "|".join(sentences.NOT_WORDS) in rx.pattern
    for rx in (sentences.UNHEALTHY, sentences.ONLY_ONE):
        assert "|".join(sentences.ONLY_WORDS) in rx.pattern
    for rx in (sentences.UNHEALTHY, sentences.INSTALL_FAILS):
        assert "|".join(sentences.JA_NOT) in rx.pattern
    for rx in (sentences.CLAUSE_BREAK, sentences.INSTALLED_BREAK):
        assert sentences.FULL_STOP in rx.pattern


def _same(name: str, line: str) -> None:
    new, old = BEFORE[name]
    got = [(m.span(), m.groups()) for m in new.finditer(line)]
    was = [(m.span(), m.groups()) for m in old.finditer(line)]
    assert got == was, (got, was)


def test_each_pattern_matches_as_it_did():
    assert sum(bool(BEFORE[n][0].search(t)) for n in BEFORE for t in LINES) > 60  # the lines do exercise the patterns
    each(((f"{n}: {t}", (n, t)) for n in BEFORE for t in LINES), _same)


def test_the_words_left_apart_stay_apart():
    # "defaulting to" names the replacement (REPLACED_BY) but makes no warning line (WARNING_LINE): as in session 35
    line = "sageattention not available, defaulting to sdpa"
    assert search.REPLACED_BY.search(line).group("c") == "sdpa" and not shapes.WARNING_LINE.search(line)
    # "fall back on" is REPLACED_BY's only
    line = "xformers missing, falling back on sdpa"
    assert search.REPLACED_BY.search(line) and not shapes.WARNING_LINE.search(line)
    # "mal" is PRAISE's lookahead's only: "funciona mal" is no praise; UNHEALTHY does not read a bare "mal"
    assert not sentences.PRAISE.search("xformers funciona mal") and not sentences.UNHEALTHY.search("mal")


def test_works_badly_is_no_health_in_spanish():
    # Left as session 35 left it (rv36 changes no answer): UNHEALTHY lacks "mal", so HEALTHY's clause "funciona mal" is blanked
    # as health, where "funciona lento" is kept (tests/test_explain_policies_s30.py's policy: works slowly / badly is no health)
    each([("funciona lento", ("con xformers funciona lento, con sdpa da error",)),
          ("funciona mal", ("con xformers funciona mal, con sdpa da error",))],
         lambda line: _kept(line), still_wrong={"funciona mal": "UNHEALTHY has no 'mal' (a behaviour change, not rv36's)"})


def _kept(line: str) -> None:
    assert sentences._healthy_blanked(line) == line
