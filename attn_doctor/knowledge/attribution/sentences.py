"""Sentences and their subjects: what on a line names no failing backend (_scrub: an issue link, a backend fallen
back or switched to, one switched off, a clause that says a backend works, examples and lists of choices, what something
replaced or is compared to, a cure, advice, a contrast's side that does not fail, an offer of wheels), and the backend a
sentence names first (first_named: leftmost, a monkey patch's replacement, a precise FlashAttention name over a shared
one), its main clause after an opening clause of time or cause (_main_clause), the selection an ignored-selection
sentence names (_selection), and the backend the entry's own match names (_subject_of_match).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import Entry
from .shapes import Attribution, USED_VERBS
from .tables import _first_rule, _line_gate, _picked, _toml, BACKENDS, NOT_SEVEN, rules
from .. import index_cache
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache


# A link to an issue or pull request is where something was discussed, not the library that failed here
# ("after upgrading Flashv2 (in https://github.com/facebookresearch/xformers/pull/816)": round 6a); nor is a link to a line of
# another project's source that a sentence cites (helper ex76, round 76: pytorch/pytorch#130717's "it's going confuse the
# caller, e.g.: https://github.com/facebookresearch/xformers/blob/<sha>/xformers/ops/fmha/torch_attention_compat.py#L60")
THREAD_LINK = _R.compile(r"https?://github\.com/[^\s/]+/[^\s/]+/(?:(?:issues|pull|discussions)/\d+|blob/[0-9a-f]{7,40}/)\S*", re.IGNORECASE)


# The backend a sentence goes back to, or falls back to, is the one that works, not the one that failed
# ("black image with --use-sage-attention, but when I switch back to xformers it works fine"; "setting it
# False should work as you fall back to F.sdpa"): round 7a (lllyasviel/stable-diffusion-webui-forge#2815,
# meta-pytorch/torchtune#2218). Only "back to": "after switching to X it crashes" is about X.
# Helper ex76 (round 76: wochenlong/lora-scripts-next#152): the same said with the noun ("fallback to", "fall-back to") or in
# Chinese ("fallback 到 xformers", "回退到", "降级为"): the backend after it is what ran instead.
# Helper ex127 (session 21; round 113m: verl-project/verl#4670, "fallback vision tower to flash_attention_2 for Qwen2.5-VL when
# using Flash Attention 3"): the verb may take its object first ("fall back the vision tower to X", "fallback layer 0 to X", up
# to three words), and the clause that says when it falls back ("when using Y", "if Y ...", "unless", "because", "while") is
# kept: Y is the backend that was selected and did not run as such.
FALLBACK_TO = _R.compile(r"(?:\b(?:switch(?:ed|es|ing)?|go(?:es|ing)?|went|fall(?:s|ing)?|fell|revert(?:s|ed|ing)?|roll(?:s|ed|ing)?|chang(?:e|ed|es|ing)|mov(?:e|ed|es|ing)) back"
                         r"(?:[ \t]+(?!to\b)[\w.'-]+){0,3}?[ \t]+to\b"
                         r"|\bfall-?backs?(?:[ \t]+(?!to\b)[\w.'-]+){0,3}?[ \t]*(?:to\b|到)|(?:回退|退回|降级|切换回|切回)[ \t]*(?:到|为|至))"
                         r"(?:(?![,.;:!?](?:\s|$)|[ \t]+(?:when(?:ever)?|if|unless|whenever|while|because|since|where)\b)[^\n()])*", re.IGNORECASE)


# The lead, session 26 (rev26's finding; Unsloth's own notice "Your GPU (Tesla T4) does not support Flash Attention 2, using
# Xformers instead."): a clause that says which backend runs in the failing one's place ("using X instead", "will use X
# instead", "defaulting to X instead") names the replacement, not the backend that failed, unless the sentence goes on to
# say the replacement fails too ("using sdpa instead and it crashes").
USED_INSTEAD = _R.compile(r"\b(?:(?:will|would|now|then)[ \t]+)?(?:" + "|".join(USED_VERBS) + r")"
                          r"[ \t]+(?:the[ \t]+)?[^\s,;:.!?()]+(?:[ \t]+[^\s,;:.!?()]+){0,2}?[ \t]+instead\b(?![ \t]+of\b)", re.IGNORECASE)


def _used_instead_removed(m: re.Match) -> str:
    """A replacement blanked unless the rest of its sentence says it fails too."""
    rest = re.match(r"[^.!?\n]*", m.string[m.end():]).group(0)
    return m.group(0) if FAILURE_STATED.search(rest) else " " * len(m.group(0))

# A clause that says a backend works is about the one that does not ("With attn_implementation='sdpa' training is fine;
# with 'flash_attention_2' loss is nan", "FA2 works, FA3 crashes on H100"): a clause, between punctuation or "but",
# "while", "whereas", "and", with a word of health and no word of failure names no failing backend. Written from the
# mechanism (lead, session 6 of 2026-11-28); tests/test_explain_variants_lead6.py holds variants and near misses.
# (helper ex119, session 20: "performs well" too, round 83 LLaVA-VL/LLaVA-NeXT#254's "Model perform well when using flash_attention_2 or
# SDPA, but ...")
# The words in other languages that more than one pattern below reads, one list each (rv36, session 36; ex35b's HEALTHY,
# UNHEALTHY, ONLY_ONE and INSTALL_FAILS beside the older PRAISE and NEGATED). The European words are read as whole words (no
# letter either side), so no two of a list match at one place: where a pattern now lists them in another order than it did,
# it matches the same.
# "it works", Russian, German, French, Spanish / Portuguese: HEALTHY (with "работают", "работало"), PRAISE
WORKS_WORDS = ("funktioniert", "fonctionne", "funciona", "работает")
# "works slowly / badly / unstably" ("работает медленно", "funciona lento", "funktioniert langsam"): no health (the lead, session
# 35: tests/test_explain_policies_s30.py): UNHEALTHY, and PRAISE's lookahead after its "it works" words, which also takes "mal"
# ("funciona mal"; left out of UNHEALTHY, which reads a word anywhere in a clause: German's "mal" is "just", and adding it is a
# change of answers, tests/test_review_rv36.py)
SLOW_WORDS = ("медленно", "плохо", "нестабильно", "langsam", "schlecht", "lento", "lenta", "lentamente", "lentement")
# negations: INSTALL_FAILS; UNHEALTHY and NEGATED add "no", "não", "nunca"; NEGATED also "ne", "jamais" (left out of UNHEALTHY,
# as they were: there they would change which clauses are healthy; a French "ne ... pas" has its "pas" already)
NOT_WORDS = ("не", "нет", "nicht", r"kein\w*", "pas")
NOT_WORDS_ROMANCE = ("no", "não", "nunca")
# "only" (English "only" is in each pattern's English part): UNHEALTHY, ONLY_ONE
ONLY_WORDS = ("nur", "solo", "só", "seulement", "только")
# Japanese negation and error, in the order both patterns had: UNHEALTHY (with 失敗, 黒), INSTALL_FAILS
JA_NOT = ("ない", "ません", "エラー")
HEALTHY = _R.compile(r"\b(?:works?|worked|working (?:properly|fine|well|correctly)|perform(?:s|ed|ing)? (?:well|fine|normally|correctly)|(?:is|are|was|were|runs?|ran|seems?) (?:fine|ok|okay|good|normal)|"
                     r"fine\b(?![- ]?tun)|no (?:problems?|issues?|errors?)|without (?:any )?(?:problems?|issues?|errors?))\b|"
                     r"正常|没问题|没有问题|"
                     # ex35b (session 35): the same said in Russian, German, French, Spanish, Portuguese and Japanese ("С xformers всё
                     # работает, а с sageattention ...", "xformers では問題なく動くが、sageattention だと黒い画像になる"); their negations
                     # are UNHEALTHY's below
                     r"(?<!\w)(?:" + "|".join(WORKS_WORDS + ("работают", "работало")) + r")(?!\w)|問題なく|問題ない|問題ありません|動きます|"
                     # ex35b (session 35): a bare "ok" ("sdpa ok, xformers ok, sage NaN"), a run's measured speed ("SDPA -> 12 it/s, xformers ->
                     # 13 it/s, SageAttention -> crash"), and "still loads / imports / runs" ("xformers and flash-attn still load
                     # but sageattention throws ...")
                     r"(?<![\w'-])(?:ok|okay)(?![\w'-])|(?:->|=>|→|:|=)[ \t]*~?\d+(?:\.\d+)?[ \t]*(?:it/s|s/it|its?/sec|tok(?:ens)?/s|samples/s|img/s|fps)\b|"
                     r"\bstill[ \t]+(?:load|import|run|work)s?\b", re.IGNORECASE)
UNHEALTHY = _R.compile(r"\b(?:not|no longer|never|n't|stop\w*|fail\w*|errors?|broken|break\w*|crash\w*|nan|inf|black|"
                       r"slow\w*|hang\w*|stuck|freez\w*|issue|problem|bug|only|except|unless|if|whether|anymore)\b|"
                       r"n't\b|不|没有?(?!问题)|失败|报错|"
                       r"(?<!\w)(?:" + "|".join(NOT_WORDS + NOT_WORDS_ROMANCE + ONLY_WORDS) + r")(?!\w)|" + "|".join(JA_NOT) + r"|失敗|黒|"
                       # (lead, session 35: "works slowly / badly" in the languages ex35b's HEALTHY reads is no health: "работает
                       # медленно", "funciona lento", "funktioniert langsam", tests/test_explain_policies_s30.py)
                       r"(?<!\w)(?:" + "|".join(SLOW_WORDS) + r")(?!\w)", re.IGNORECASE)
# (a full stop, colon or mark only before a space or the line's end: "flash_attn.cute" is one name; a parenthesis
# stays inside its clause)
# helper ex180 (session 32): not the full stops of "i.e." and "e.g.", which go on with the same clause ("a BC check for FA2 (i.e.
# `_supports_flash_attn_2` still works ...) - but it will not work on FA3": round 136m QwenLM/Qwen3-TTS#15)
FULL_STOP = r"(?<!\bi\.e)(?<!\be\.g)[.:!?](?=\s|$)"  # (CLAUSE_BREAK's and ex35b's INSTALLED_BREAK's, rv36)
CLAUSE_BREAK = _R.compile(r"([,;，；、]|" + FULL_STOP + r"|\bbut\b|\bwhile\b|\bwhereas\b|\band\b|但)", re.IGNORECASE)


# helper ex180 (session 32; round 83: LLaVA-VL/LLaVA-NeXT#254 and huggingface/transformers#33615, "performs well when using
# flash_attention_2 or SDPA, but its performance drops when using the original attention (i.e., attn_implementation="eager")"): a
# clause that says backends work beside one that says the eager attention (transformers' attn_implementation="eager", no backend
# of the seven) fails or degrades is about the eager one: the healthy clause names no failing backend. Not torch.compile's "eager
# mode" ("FlexAttention works compiled but fails in eager mode" is FlexAttention's failure), which names no attention implementation
EAGER_FAILS = _R.compile(r"(?:\battn_implementation[ \t]*[=:][ \t]*[`'\"]?eager\b|--attn_implementation[ \t=]+eager\b|"
                         r"\beager[ \t]+(?:attention|attn)(?:[ \t]+implementation)?\b)(?![ \t]*(?:works?|worked|is[ \t]+fine))",
                         re.IGNORECASE)


def _healthy_removed(line: str) -> str:
    """`line` with each clause that says something works blanked (the same length: positions stay)."""
    kept = _healthy_blanked(line)
    # only where another clause still names a backend: "FA2 worked in 2.6 but fails in 2.7" is about FA2; or names the eager
    # attention (no backend of the seven) as the failing side (EAGER_FAILS)
    if kept != line and (any(rx.search(kept) for _, rx in rules().seven) or EAGER_FAILS.search(kept)):
        return kept
    return _praised_removed(line)


# A sentence that praises a backend, beside another sentence that says what fails with a subject of its own ("flash-attn works
# fine. The problem is that the dataloader hangs", "Thanks for flash-attention, it is great. The docs link is broken", "sage
# attention is much faster, thanks! However the output video is saved with the wrong frame rate"): the failure is that
# subject's, not the praised backend's (session 24's rev24 note 4; helper ex147, session 25). Written from the mechanism: the
# praise is HEALTHY's or a word of thanks, speed or help, in English, Chinese, Japanese and European forms; the other sentence
# starts (after a connective) with its own subject, not "it", "this", a bare verb ("Crashes on V100 though") or the
# backend's own parts (its install, build, wheel, kernel, import, compile, backward): those are still the backend's.
PRAISE = _R.compile(r"\b(?:thanks?|thank you|kudos|(?:is|are|was|were)[ \t]+(?:(?:really|very|so|much|way|a lot|super)[ \t]+)?"
                    r"(?:great|awesome|amazing|excellent|fantastic|faster|quicker|quick|fast|helpful|a lifesaver)|"
                    r"helps?|helped|speeds?[ \t]+(?:it|things|everything|generation|inference|training)[ \t]+up|"
                    # (not "works slowly": "работает медленно", "funciona lento", "funktioniert langsam", helper ex174)
                    r"(?:" + "|".join(WORKS_WORDS) + r")\b(?![ \t]+(?:(?:очень|sehr|muy|très|muito|bem)[ \t]+)?(?:"
                    + "|".join(SLOW_WORDS + ("mal",)) + r")))|"
                    r"正常|没问题|沒問題|没有问题|很好|好用|很快|更快|谢谢|感谢|問題(?:なく|ない|なし)|正常に|ありがとう|速い|速くなり", re.IGNORECASE)
# (UNHEALTHY's negations in the European languages PRAISE reads: "funktioniert nicht", "ne fonctionne pas", "no funciona", "не работает")
NEGATED = _R.compile(r"(?<!\w)(?:" + "|".join(NOT_WORDS + NOT_WORDS_ROMANCE + ("ne", "jamais")) + r")(?!\w)", re.IGNORECASE)
SENTENCE_END = _R.compile(r"(?<=[.!?])[ \t]+|(?<=[。！？])[ \t]*")
CONNECTIVE = _R.compile(r"^(?:(?:however|but|also|still|unfortunately|sadly|though|yet|now|then|so|and|anyway|instead|meanwhile|"
                        r"separately|otherwise|aber|mais|pero|но|однако|但是|但|可是|不过|不過|しかし|ただ)\b[ \t,，、:]*)+", re.IGNORECASE)
BACK_TO_IT = _R.compile(r"^(?:it|it['’]s|its|this|that|these|those|they|them|i|i['’]m|i['’]ve|we|we['’]re|[a-z]+s\b|[a-z]+ed\b|doesn['’]t|does|did|didn['’]t|won['’]t|"
                        r"can['’]?t|cannot|only|except|unless|if|when|on|with|for|in|under|(?:the|its|my|our)[ \t]+(?:\w+[ \t]+)?"
                        r"(?:install\w*|build\w*|wheels?|kernels?|imports?|compil\w*|backward|forward|pass|package|module|extension|"
                        r"version|op|ops|operator|attention)\b)|^(?:它|这|這|该|該|其|报错|失败|崩溃|出错|但它)", re.IGNORECASE)
# rev25: nor a sentence whose subject is the run's output, said corrupt in the ways a broken attention kernel corrupts it (black,
# noise, NaN, garbled: attn.wrong-output's and attn.nan-output's symptoms): the output is what the praised backend computes
# ("SageAttention is much faster, thanks! However the output video is completely black", "xformers is great. The output is NaN
# after the first step"); another part's failure ("the VAE decode step produces a corrupted frame", "the output video is saved
# with the wrong frame rate") keeps its own subject
OUTPUT_WRONG = _R.compile(r"^(?:(?:the|its|my|our|all|every|each)[ \t]+)?(?:\w+[ \t]+)?(?:outputs?|results?|images?|videos?|frames?|"
                          r"pictures?|generations?|samples?|loss|logits|gradients?|predictions?|tokens?)\b[^.!?。！？]{0,80}?"
                          r"\b(?:black|nan|nans|inf|noise|noisy|garbage|garbled|gibberish|nonsense|artifacts?|artefacts?|blank|"
                          r"corrupt\w*|static|all[ \t]+zeros?|zeros)\b", re.IGNORECASE)
# a backend named as left out ("Without sageattention everything works", "Без sageattention всё работает", "不用 xformers 就正常"):
# the sentence praises the run without it, so it is the failing one
LEFT_OUT = _R.compile(r"\b(?:without|w/o|except|ohne|sans|sin|sem|без|кроме)\b[^.!?。！？]{0,30}$|(?:不用|不开|不加|去掉|关掉|关闭|禁用|没有|沒有)[^。！？]{0,10}$",
                      re.IGNORECASE)


def _praised_removed(line: str) -> str:
    """`line` with its sentences that praise a backend blanked, where every sentence naming a backend praises it and another
    sentence says a failure with its own subject; else the line as it is."""
    seven = rules().seven
    parts, at = [], 0
    for m in SENTENCE_END.finditer(line):
        parts.append((at, m.start()))
        at = m.end()
    parts.append((at, len(line)))
    if len(parts) < 2:
        return line
    praised, own_subject = [], False
    for a, z in parts:
        s = line[a:z]
        named = [m.start() for _, rx in seven for m in [rx.search(s)] if m]
        if named:
            if not (HEALTHY.search(s) or PRAISE.search(s)) or UNHEALTHY.search(PRAISE.sub(" ", HEALTHY.sub(" ", s))) \
                    or NEGATED.search(s) or LEFT_OUT.search(s[:min(named)]):
                return line
            praised.append((a, z))
        elif s.strip():
            said = CONNECTIVE.sub("", s.strip())
            if BACK_TO_IT.search(said) or OUTPUT_WRONG.search(said):
                return line  # "It crashes on V100", "I rebuilt the wheel and ...", "The output is black": the praised backend's still
            own_subject = True
    if not praised or not own_subject:
        return line
    for a, z in praised:
        line = line[:a] + " " * (z - a) + line[z:]
    return line


def _healthy_blanked(line: str) -> str:
    """`line` with each clause that says something works (HEALTHY, and no word of failure) blanked, and the short rest
    of such a clause's list ("run fine with FA2 and FA3"); the same length, so positions stay."""
    parts = CLAUSE_BREAK.split(line)  # clauses at even indexes, their separators at odd ones
    healthy = False
    for k in range(0, len(parts), 2):
        clause = parts[k]
        if HEALTHY.search(clause) and not UNHEALTHY.search(HEALTHY.sub(" ", clause)):
            parts[k] = " " * len(clause)
            healthy = True
            # ex35b (session 35): and the short start of its list before it ("while xformers and sdpa are fine", "xformers,
            # SDPA and FA2 all work"): the items joined to the healthy clause by "and" or a comma, each of three words at most
            # with no word of failure; a clause that says its own failure ("FA2 crashes, FA3 and SDPA are fine") ends the list
            b = k - 2
            while b >= 0 and parts[b + 1].strip().lower() in ("and", ",", "，", "、") and len(parts[b].split()) <= 3 \
                    and parts[b].strip() and not UNHEALTHY.search(parts[b]) and not HEALTHY.search(parts[b]):
                parts[b] = " " * len(parts[b])
                b -= 2
        elif healthy and parts[k - 1].strip().lower() in ("and", ",") and len(clause.split()) <= 3 \
                and not UNHEALTHY.search(clause):
            # the rest of a healthy clause's list ("run fine with FA2 and FA3"): session 6, ex37
            parts[k] = " " * len(clause)
        else:
            healthy = False
    return "".join(parts)


# helper ex172 (session 30; round 172m: simple-stories/simple_stories_train#47, "Training diverges without flash attention", the
# hand-written attention under bf16 autocast diverging): a numeric failure (divergence, NaN, a loss that blows up, black or noisy
# output) said to happen WITHOUT a backend is the run that goes without it, so the backend named right after "without" is not the
# failing one. Not a line that says the program cannot or will not run without it (its absence is then the failure)
WITHOUT_AFTER_FAILURE = _R.compile(r"\b(?:diverg\w*|nans?|blows?[ \t]+up|blew[ \t]+up|explod\w*|black|nois[ey]|garbage|gibberish|"
                                   r"unstable|instabilit\w*)\b[^.;!?\n]{0,60}?\b(?P<off>(?:without|w/o)[ \t]+(?:the[ \t]+|using[ \t]+|"
                                   r"enabling[ \t]+)?[`'\"]?[\w.-]+(?:[ \t]+[\w.-]+){0,2})", re.IGNORECASE)
CANNOT_WITHOUT = _R.compile(r"\b(?:can[\u2019']?t|cannot|won[\u2019']?t|unable|refus\w*|requires?|needs?|only[ \t]+works?)\b", re.IGNORECASE)


def _without_after_failure_removed(line: str) -> str:
    """`line` without the backend a numeric failure is said to happen without (WITHOUT_AFTER_FAILURE)."""
    if CANNOT_WITHOUT.search(line):
        return line
    def blank(m: re.Match) -> str:
        a, b = m.span("off")
        t = m.group(0)
        return t[:a - m.start()] + " " * (b - a) + t[b - m.start():]
    return WITHOUT_AFTER_FAILURE.sub(blank, line)


# helper ex172 (session 30; round 172m unrelated: facebookresearch/xformers#1154, the maintainer: "The error seems to come from diffusers,
# not from xFormers."): where an error is said to come from one place and not from another, the other is ruled out as its source,
# whether or not the rest of the line names a backend (unlike a contrast's side, _contrast_removed); both orders ("not from X but
# from Y"), and the verb denied (review rev30: "doesn't come from X but from Y", "it isn't coming from X, it's the dataloader")
FROM_NOT_FROM = _R.compile(r"\b(?:comes?|coming|came|originat\w*|stems?|stemming|arises?|arising)[ \t]+from[ \t]+[^,;.!?\n]{1,60}?,?[ \t]+"
                           r"(?:and[ \t]+|but[ \t]+)?not[ \t]+from[ \t]+(?P<not>(?:the[ \t]+)?[`'\"]?[\w.-]+(?:[ \t]+[\w.-]+)?[`'\"]?)|"
                           r"(?:\bnot|n[\u2019']t)[ \t]+(?:(?:com(?:e|es|ing)|originat\w*|stem(?:s|ming)?|aris(?:e|es|ing))[ \t]+)?from[ \t]+"
                           r"(?P<not2>(?:the[ \t]+)?[`'\"]?[\w.-]+(?:[ \t]+[\w.-]+)?[`'\"]?)[ \t]*,?[ \t]*"
                           r"(?:but[ \t]+(?:rather[ \t]+)?from\b|it[\u2019']s\b|it[ \t]+is\b)", re.IGNORECASE)


def _source_ruled_out_removed(line: str) -> str:
    """`line` without the place an error is said not to come from (FROM_NOT_FROM)."""
    def blank(m: re.Match) -> str:
        g = "not" if m.group("not") is not None else "not2"
        a, b = m.span(g)
        t = m.group(0)
        return t[:a - m.start()] + " " * (b - a) + t[b - m.start():]
    return FROM_NOT_FROM.sub(blank, line)


# A backend named as switched off in a condition is not the one that failed ("it will nanloss when flash attention is
# turned off": round 14, alibaba/Pai-Megatron-Patch#60): the failing path is the one that runs without it.
SWITCHED_OFF = _R.compile(r"\b(?:when|if|once|while|after)\b(?:(?!\b(?:when|if|once|while|after)\b)[^\n.,;:!?()]){0,60}?\b(?:is|was|are|were|gets?|got|being)[ \t]+(?:turned|switched|toggled)[ \t]+off\b", re.IGNORECASE)


# DINOv2's layer notices at import ("UserWarning: xFormers is not available (Attention)", "... is disabled (SwiGLU)", "...
# is available (Block)"), printed by VGGT, Depth Anything and other DINOv2-based models: they say which attention a layer
# will use, not that xformers failed (round 26; tests/test_explain_variants_26.py)
DINOV2_NOTICE = _R.compile(r"\bxFormers is (?:not available|disabled|available) \((?:Attention|SwiGLU|Block|NestedTensorBlock|MemEffAttention)\)")


# Session 6 (ex37; tests/data/explain_attribution_s6.toml, tests/test_explain_attribution_s6.py): more ways a line names a
# backend it is NOT about.
# A switch that turns a backend off ("--disable-xformers", "--no-sage-attention"): the run goes without it.
SWITCHED_OFF_FLAG = _R.compile(r"(?<![\w-])--(?:disable|no)[-_][\w-]*?(?:xformers|sage|flash|sdp|pytorch)[\w-]*", re.IGNORECASE)
# An app's start-up line saying one library is absent ("Xformers is not installed!", FramePack's banner, one line per
# library): what the app does without, not what failed (the banner is app.attention-libraries-absent's)
ABSENT_BANNER = _R.compile(r"^(?:[^\n]*?[\]:>-][ \t]+)?(?:xformers|flash[ _-]?attn|sage[ _-]?attn|sageattention|flash[ _-]?attention)"
                           r" is not installed!\s*$", re.IGNORECASE)
# Helper ex77 (session 11; round 77: deepbeepmeep/Wan2GP#8): the same error met in ANOTHER program, and why it failed there
# ("I also encountered this error in Alibaba's repo for Wan2.1, as Flash Attention 2.X only supports Ampere GPUs", above "I'm
# using Sage right now for this project"): the backend that clause names ran in the other program, not in the one reported
OTHER_PROGRAM = _R.compile(r"\b(?:also|too)\b[^\n.;]{0,60}?\bin[ \t]+(?:[\w.-]+['\u2019]s|the[ \t]+(?:original|official|upstream|other))"
                           r"[ \t]+(?:repo|repository|project|codebase|code|implementation)\b[^\n]*", re.IGNORECASE)
# A parenthesised list of three or more examples in prose ("operators that call driver APIs (graph capture, Flash
# Attention 3, paged attention) need the driver": round36m's codersera page): examples, not the subject. Not a call's
# arguments (a name or a bracket right before the parenthesis), nor a list of settings (no '=')
EXAMPLES = _R.compile(r"(?<![\w\])>])\((?:[\w .'/+-]{1,40},){2,}[\w .'/+-]{1,40}\)")
ETC = _R.compile(r"^\W*(?:etc|and so on|and more|\.\.\.|…)\W*$", re.IGNORECASE)
# A backend's own switch in a config or a report set off ("flash_attn: disabled", "use_xformers = False"): not what runs
# helper ex119 (session 20; round 7a unslothai/unsloth#4381, unsloth's banner "FA [Xformers = None. FA2 = False]"): a library's state
# None in a listing of states (another item or a bracket after it, not a guarded import's `flash_attn_func = None` at a line's end)
CONFIG_OFF = _R.compile(r"(?<![\w-])(?![\w-]*disable)[\w-]*(?:xformers|sage|flash)[\w-]*\**[ \t]*[:=][ \t]*\**[ \t]*[\"'`]?"
                        r"(?:(?:disabled?|false|off)\b(?![ \t]*[\w(])|(?-i:None)[ \t]*(?=[.,;\]|][ \t]*\S))", re.IGNORECASE)


# helper ex147 (session 25; round 136m: QwenLM/Qwen3-VL#1664, "export VLLM_ATTENTION_BACKEND="XFORMERS" ... 还是会调用flash_attn"): a
# serving engine's backend selector set to one backend while the engine still calls another. vLLM's vision towers choose their
# own attention: they take upstream flash_attn whenever it imports, whatever the selector says (vllm-project/vllm
# vllm/model_executor/models/qwen3_vl.py, qwen2_5_vl.py, keye.py: `if self.attn_backend != _Backend.FLASH_ATTN and
# check_upstream_fa_availability(...)`, vllm/attention/layer.py check_upstream_fa_availability), so the backend still called is
# what runs and fails; the selector's value names none (an app's own flag, HunyuanVideo-1.5's SAGE_ATTN, keeps its reading:
# round 8 labels the selected backend there). Only where what is still called is a backend by name, as frameworks.toml's
# app.backend-selection-ignored pattern reads it (rev25: "VLLM_ATTENTION_BACKEND=FLASHINFER and the engine still uses too much
# memory, then crashes ... in flashinfer" says nothing of another backend called: the selector stays, the engine's context)
ENGINE_SELECTOR_STILL = _R.compile(
    r"(?:\b(?:VLLM_ATTENTION_BACKEND|VLLM_ATTN_BACKEND|SGLANG_ATTENTION_BACKEND)\b|(?<![\w-])--(?:attention-backend|attn-backend|mm-attention-backend)\b)"
    r"[ \t]*[=:]?[ \t]*[\"'`]?[\w.-]*[\"'`]?(?=[^\n]{0,200}?(?:\bstill\b[ \t]+(?:\w+[ \t]+)?(?:calls?|uses?|using|imports?|loads?|runs?|goes[ \t]+through)\b"
    r"|(?:还是|仍然|依然|仍旧|依旧|还在)[ \t]*(?:会|在)?[ \t]*(?:调用|使用|用|加载|导入|走))"
    r"[ \t]*(?:the[ \t]+)?[`'\"]?(?:flash[-_ ]?att(?:n|ention)|FA[234]\b|xformers|sage[-_ ]?att(?:n|ention)|sageattention|sdpa|flex[-_ ]?att))",
    re.IGNORECASE)

# the same text asks how to switch to the backend it selected ("请问如何切换xformers吖？", "how do I switch to xformers?"): the
# backend wanted, not the one that fails; blanked only where the rest of the line still names a backend
SWITCH_QUESTION = _R.compile(r"(?:\bhow[ \t]+(?:do|can|could|should)[ \t]+(?:I|we|you)[ \t]+(?:switch|change|move|go)[ \t]+(?:over[ \t]+)?to\b"
                             r"|(?:如何|怎么|怎样|怎麼)[ \t]*(?:切换|切換|换成|换到|改成|改用)(?:到|为|成)?)[^?？\n]{0,60}?[?？]", re.IGNORECASE)


def _blanked(m: re.Match) -> str:
    """The match replaced by as many spaces (columns kept for the spans measured after it)."""
    return " " * len(m.group(0))


def _examples_removed(m: re.Match) -> str:
    """A parenthesised list blanked, unless every item (but "etc.") names one and the same backend: a list of that
    backend's own functions is about it ("(`sageattn_qk_int8_pv_fp16_cuda`, `sageattn_qk_int8_pv_fp8_cuda`, etc.)")."""
    items = [x for x in m.group(0)[1:-1].split(",") if x.strip() and not ETC.match(x)]
    if sum(len(x.split()) > 1 for x in items) < 2:
        return m.group(0)  # not prose: a shape's dimensions, a message's fields ("(batch_size, num_head, seqlen_q)")
    named = {first_named(x) for x in items}
    return m.group(0) if len(named) == 1 and None not in named else " " * len(m.group(0))
# What a sentence names as replaced or as the reason, where another part of it names a backend: "instead of
# flash_attention_2", "rather than xformers", "switched from xformers to SDPA", "because flash-attn does not build"
# helper ex114 (round 110: jt-zhang/Sparse_Attention_API#2, "I replace flash_attn_v2 with sparse_sageattention ... the time cost
# increases"; round 105m: ROCm/flash-attention#142, "SDPA outperforms Flash Attention on MI300x"): what is replaced "with" the
# new backend, and the side that outperforms the one reported (the slow one is the object)
REPLACED = _R.compile(r"\b(?:instead of|rather than)[ \t]+[^\s,;:.!?()]+|(?<=\s)from[ \t]+[^\n,;:()]{1,40}?[ \t]+(?=to\b)|"
                      r"\bbecause[ \t]+(?=\w)[^.;:!?\n]*|"
                      r"\breplac(?:e|ed|es|ing)[ \t]+[^\n,;:()]{1,40}?[ \t]+(?=with\b)|"
                      r"[^\s,;:!?()]+(?:[ \t]+[^\s,;:!?()]+){0,2}?[ \t]+(?=(?:(?:significantly|greatly|far|vastly|clearly|consistently|much)[ \t]+)?outperform(?:s|ed)?[ \t]+(?:the[ \t]+)?(?:(?:PyTorch|torch)(?:['’]s)?[ \t]+)?[`'\"]?"
                      r"(?:flash|xformers|sage|flex|sdpa|FA[ -]?[234]\b|scaled_dot|memory[_ -]efficient|cudnn))",
                      re.IGNORECASE)


# What a user says they also tried ("I also tried reinstalling xformers and flash-attn, nothing changed"): attempts beside
# the failure, not the failing backend (the brief of session 6's helper ex37; tests/test_explain_attribution_s6.py)
TRIED = _R.compile(r"\b(?:also|even|already)[ \t]+tried\b[^.;:!?\n]*|\btried[ \t]+(?:to[ \t]+)?(?:re-?install\w*|upgrad\w*|downgrad\w*|"
                   r"updat\w*|switch\w*|disabl\w*|uninstall\w*|remov\w*|rebuild\w*|reinstall\w*)\b[^.;:!?\n]*", re.IGNORECASE)


# A backend switched to while the error stayed the same is ruled out, and so is the one switched from ("To ensure that Sage
# wasn't doing anything, I turned it over to SDPA but the errors stayed the same": round 32, leomaxwell973/Triton-3.3.0...#1;
# the failure is Inductor's, whatever attention runs). Only a switch between attention paths: a sentence with a version
# number ("switched to flash-attn 2.5.8, same error") is that backend still failing (session 7, ex48;
# tests/test_explain_variants_ex48.py).
PERSISTED = _R.compile(r"\b(?:errors?|problems?|issues?|crash(?:es)?|results?|outputs?|it)\b[^.;!?\n]{0,20}?\b(?:stay(?:s|ed)?|"
                       r"remain(?:s|ed)?|(?:is|are|was|were)(?: still| exactly)?)\s+(?:the\s+)?same\b|"
                       r"\b(?:the|exactly the)\s+same\s+(?:error|errors|problem|issue|crash|result|output)s?\b|"
                       r"\b(?:errors?|problems?|issues?|crash(?:es)?)\s+(?:still\s+)?persist(?:s|ed)?\b", re.IGNORECASE)
SWITCHED_TO = _R.compile(r"\b(?:switch(?:ed|es|ing)?|turn(?:ed|s|ing)?|chang(?:e|ed|es|ing)|set(?:ting)?|mov(?:e|ed|es|ing)|"
                         r"swap(?:ped|s|ping)?)\b(?:[ \t]+(?:it|this|that|them|the attention|attention|the backend))?"
                         r"(?:[ \t]+over)?[ \t]+to\b|\binstead\b|"
                         # helper ex66: a retry with another backend ("Tried with SDPA too, the same error", "I re-ran it using
                         # xformers and the error stays the same"): the same persisted-error sentence rules it out
                         r"\b(?:re-?)?tr(?:y|ied|ies|ying)[ \t]+(?:it[ \t]+)?(?:again[ \t]+)?(?:with|using)\b|"
                         r"\bre-?r(?:an|un)[ \t]+(?:it[ \t]+)?(?:with|using)\b", re.IGNORECASE)
SENTENCE = _R.compile(r"(?:[^.!?\n]|[.!?](?!\s|$))+(?:[.!?](?=\s|$)|$)")  # ("...; the problem persists" is one sentence)
VERSION = _R.compile(r"\d+\.\d+")


def _persisted_removed(line: str) -> str:
    """`line` with each sentence that switched attention path and kept the same error blanked."""
    def blank(m: re.Match) -> str:
        s = m.group(0)
        return " " * len(s) if SWITCHED_TO.search(s) and PERSISTED.search(s) and not VERSION.search(s) else s
    return SENTENCE.sub(blank, line)


# helper ex84 (session 13; round 81m: alexzhang13/flashattention2-custom-mask#18, "significant numerical discrepancies arise compared
# to PyTorch's native scaled_dot_product_attention"): the backend a result is compared to is the reference, not the failing side
# helper ex119 (session 20; round 96 Dao-AILab/flash-attention#1359 "benchmarked FlashAttention against PyTorch's
# scaled_dot_product_attention", round 83 Dao-AILab/flash-attention#2553 "the output norm matched SDPA ... vs SDPA-bf16's own"): the
# reference by its other words too: "against", "relative to", "different from", "slower/faster than", and a result that matches
# (or does not match) it. The reference is never the failing side, so it is blanked even where the rest of the line names nothing
# (then the lines around it decide: FA4's title over #2553's sentence). torch's names for SDPA's kernels ("math SDPA", "the flash SDP
# kernel", "memory-efficient SDPA") are the reference's words too, not a backend of their own (rev20)
COMPARED_TO = _R.compile(r"(?:\b(?:compared[ \t]+(?:to|with|against)|versus|vs\.?|(?P<against>against)|relative[ \t]+to|differs?[ \t]+from|"
                         r"different[ \t]+from|(?:slower|faster|worse|better)[ \t]+than)|"
                         r"\b(?:outputs?|results?|values?|norms?|logits|loss(?:es)?)(?:[ \t]+(?:norms?|values?|shapes?|still|all|exactly|closely|"
                         r"roughly|numerically|do|does|did|not|never|only|do(?:es)?n['’]t|didn['’]t))*[ \t]+match(?:es|ed)?)"
                         r"[ \t]+(?:(?:the|PyTorch(?:['’]s)?|torch(?:['’]s)?|native|reference|built-?in|standard|that[ \t]+of|those[ \t]+of|"
                         r"math|eager|cuDNN|flash|(?:mem(?:ory)?[ \t_-]?)?efficient)[ \t]+){0,3}"
                         r"[^\s,;:!?()]+", re.IGNORECASE)
COMPARED_WORDS = ("compared", "vs", "versus", "against", "relative to", "differ", "than", "match")
# ("against" only after a verb of comparing: "benchmarked X against Y", "checked it against Y"; "tested against flash-attn 2.8.3" says
# what ran, "built against torch 2.4" what it was built for)
COMPARING = _R.compile(r"\b(?:compar|benchmark|check|validat|verif|diff|measur|evaluat)\w*\b[^.;:!?\n]{0,60}$", re.IGNORECASE)


def _replaced_removed(line: str) -> str:
    """`line` without what it names as the reference it is compared to (always: helper ex119), and without what it names as
    replaced or as a reason where the rest still names a backend."""
    low = line.lower()
    if any(w in low for w in COMPARED_WORDS):
        line = COMPARED_TO.sub(lambda m: m.group(0) if m.group("against") and not COMPARING.search(line, 0, m.start())
                               else " " * len(m.group(0)), line)
    kept = REPLACED.sub(_blanked, line)
    if kept == line:
        return line
    return kept if any(rx.search(kept) for _, rx in rules().seven) else line


# helper ex57 (session 9; tests/test_explain_variants_ex57.py): a list of choices or a run of code spans names no failing backend:
# a message's options ('Please use one of: "flash_attn", "flash_attention_2", "flash_attention_3"', modelscope/ms-swift#5690) and
# an enumeration of three or more code spans ("`flash`, `flash_hub`, `sage`, `aiter`, `xformers` call the kernel directly",
# huggingface/diffusers#14160), unless every item names one and the same backend (a list of one backend's functions is about it)
OPTIONS = _R.compile(r"""\b(?:one of|choose from|(?:valid|supported|allowed|available) (?:values|options|choices)(?: are| is)?)"""
                     r"""[ \t]*:?[ \t]*(\[[^\]\n]{1,300}\]|\([^)\n]{1,300}\)|\{[^}\n]{1,300}\}|"""
                     r"""["'`‘“][^"'`’”\n]{1,60}["'`’”](?:[ \t]*(?:,|\bor\b|\band\b)[ \t]*["'`‘“][^"'`’”\n]{1,60}["'`’”])+)""",
                     re.IGNORECASE)
SPANS = _R.compile(r"`[^`\n]{1,60}`(?:[ \t]*,[ \t]*`[^`\n]{1,60}`){2,}(?:,?[ \t]*(?:and|or)[ \t]*`[^`\n]{1,60}`)?")
LIST_ITEM = _R.compile(r",|\b(?:and|or)\b")


def _list_removed(m: re.Match) -> str:
    """A list blanked unless every item names one and the same backend (each item read by the rules alone, unscrubbed)."""
    items = [x for x in LIST_ITEM.split(m.group(m.lastindex or 0)) if x.strip(" \t`'\"[](){}:")]
    named = {hit[0] if hit is not None and hit[0] not in NOT_SEVEN else None for hit in map(_first_rule, items)}
    return m.group(0) if len(named) == 1 and None not in named else " " * len(m.group(0))


# helper ex66: more lists of choices: argparse's braces in a usage line or an "invalid choice" message ("[--attn_implementation
# {eager,sdpa,flash_attention_2}]"), and a comma list after "available/supported/valid/allowed (attention) backends/...:"
# ("Invalid attention backend xformers. Available: flash_attn, sdpa, flex"; "Supported attention backends are: FlashAttention-2,
# xFormers, SDPA"): the options, not the one chosen (the chosen one, outside the list, stays)
# (an item starts with no blank, as PROSE_EXAMPLES', review rev29: benchmarks/explain_backtracking.py's `wrap`)
BRACED_CHOICES = _R.compile(r"(?<![\w$%])\{([\w.-]+(?:,[\w.-]+)+)\}")
LISTED_CHOICES = _R.compile(r"\b(?:valid|supported|allowed|available|possible)(?:[ \t]+attention)?(?:[ \t]+(?:backends?|"
                            r"implementations?|kernels?|values?|options?|choices?))?(?:[ \t]+(?:are|is|include))?[ \t]*:[ \t]*"
                            r"((?:[^,;\n \t][^,;\n]{0,39},[ \t]*)+(?:(?:or|and)[ \t]+)?[^,;.\n]{1,40})", re.IGNORECASE)


def _choices_removed(m: re.Match) -> str:
    """A list of choices blanked as _list_removed does, where an item names a backend of the seven (a list of versions or
    architectures, "Supported: 9.x, 10.x, 11.x" in FA4's own message, is no list of backends: it stays)."""
    if _first_rule(m.group(m.lastindex or 0)) in (None, ("none", False)):
        return m.group(0)
    return _list_removed(m)


# helper ex57: "cannot import name 'N' from 'M'": the module decides whose API moved. A model class named after a backend
# ("cannot import name 'LlamaFlashAttention2' from 'transformers.models.llama.modeling_llama'": transformers 4.48 removed its
# per-model attention classes, deepseek-ai/DeepSeek-OCR#126) is the module's library's when the module names no backend; a
# function name stays ("cannot import name 'flash_attn_func' from 'flash_attn'", "... 'is_flash_attn_greater_or_equal_2_10' from
# 'transformers.utils'": the helper only FlashAttention's integration defines), and not from torch's own modules ("cannot import
# name 'SDPBackend' from 'torch.nn.attention'": SDPA's class, a torch too old for it)
IMPORT_FROM = _R.compile(r"""\bcannot import name [`'"‘’]?(?-i:([A-Z][A-Za-z0-9_]*))[`'"‘’]?[ \t]+from[ \t]+[`'"‘’]?([\w.]+)""",
                         re.IGNORECASE)


def _class_of_other_module_removed(line: str) -> str:
    def blank(m: re.Match) -> str:
        hit = _first_rule(m.group(2))
        if hit is not None and hit[0] not in NOT_SEVEN or m.group(2).startswith("torch."):
            return m.group(0)  # the backend's own module, or torch's (SDPBackend from torch.nn.attention is SDPA's own class)
        a, b = m.span(1)
        return m.group(0)[:a - m.start()] + " " * (b - a) + m.group(0)[b - m.start():]
    return IMPORT_FROM.sub(blank, line)


# helper ex62 (session 9; benchmarks/results/explain-unrelated-claims-s9.md, tests/test_explain_variants_ex62.py): a backend
# named as the cure ("Flash Attention Fixed Everything", "switching to xformers solved it", "SDPA saved my run") or as what was
# cured ("upgrading torch fixed it for SDPA, but flash attention still gives NaN"): what fixed the
# failure, not what failed; and a build offered ("Here is a community-built wheel for flash_attn v2.8.3", "I've built xformers
# wheels for torch 2.9", a title "[Wheel] Pre-built flash_attn v2.8.3 for CUDA 13"): an announcement, no failure (unless it says
# one: "Prebuilt flash_attn wheel fails to import" stays)
CURED = _R.compile(r"[^.;:!?\n]{0,60}?\b(?:fixed|fixes|solved|solves|saved|saves|cured|cures)[ \t]+(?:everything|it all|all of (?:it|them)|"
                   r"it|the (?:problem|issue|nans?|crash|error)s?|my (?:problem|issue|run|training|life|day)s?|all (?:my |the |our )?"
                   r"(?:problems?|issues?))\b(?![ \t]*(?:for|on|in|with)?[ \t]*(?:some|a while|a bit|partly|partially|only)\b)"
                   r"(?P<cured>[ \t]+(?:for|with|on)[ \t]+[^\s,;.!?]+)?",
                   re.IGNORECASE)
OFFER = _R.compile(r"^\W*(?:\[[^\]\n]{1,20}\][ \t]*)?(?:pre-?built|community[- ]built|unofficial)\b[^\n]*|\bhere (?:is|are)\b[^.;!?\n]{0,60}?\b(?:wheels?|builds?)\b[^.;!?\n]*|\bI(?:[’']ve| have)?[ \t]+(?:built|compiled|uploaded|"
                   r"made|published|released)\b[^.;!?\n]{0,60}?\bwheels?\b[^.;!?\n]*", re.IGNORECASE)
# (not a change made to the backend: "Removing --use-sage-attention fixes it", "downgrading flash-attn to 2.7.4 solved it" say the
# backend, as it was, was the failure)
# (round 83, ex83: "switching from sdpa to eager fixed it" is a change made to sdpa, which was the failure)
CHANGED = _R.compile(r"\b(?:remov\w*|disabl\w*|turn\w* off|switch\w* off|switch\w*(?: the attention)? (?:away )?from|uninstall\w*|drop\w*|without|downgrad\w*|upgrad\w*|"
                     r"updat\w*|reinstall\w*|rebuil\w*|recompil\w*|patch\w*|pinn?\w*|rollback|roll\w* back|revert\w*|unset\w*)\b|"
                     r"--(?:no|disable)[-_]", re.IGNORECASE)
FAILED = _R.compile(r"\b(?:fail\w*|errors?|crash\w*|broken|cannot|can[’']t|unable|wrong|missing)\b", re.IGNORECASE)  # (for OFFER)
CURE_WORDS = ("fixed", "fixes", "solved", "solves", "saved", "saves", "cured", "cures")


# helper ex84 (session 13; round 81m: verl-project/verl#113, "change VLLM_ATTENTION_BACKEND to XFORMERS to avoid illegal memory
# access"): the backend a setting is changed TO in order to avoid (fix, work around) a failure is the cure, not the failing one
CHANGED_TO_AVOID = _R.compile(r"\b(?:chang\w*|switch\w*|set|sets|setting|forc\w*|mov\w*)\b[^.;!?\n]{0,60}?\bto[ \t]+"
                              r"(?P<cure>[`'\"]?[\w.-]+[`'\"]?)[ \t]+(?:to|in[ \t]+order[ \t]+to|so[ \t]+as[ \t]+to)[ \t]+"
                              r"(?:avoid|fix|prevent|work[ \t]+around|get[ \t]+around|circumvent|bypass|stop)\b", re.IGNORECASE)


def _cure_to_avoid_removed(line: str) -> str:
    """`line` without the backend it is changed to in order to avoid a failure (CHANGED_TO_AVOID)."""
    def blank(m: re.Match) -> str:
        a, b = m.span("cure")
        s = m.group(0)
        return s[:a - m.start()] + " " * (b - a) + s[b - m.start():]
    return CHANGED_TO_AVOID.sub(blank, line)


def _cured_removed(line: str) -> str:
    """`line` without a clause that names what cured the failure, unless that clause says the failure too ("the update fixed
    nothing, flash attention still fails" keeps its second clause; "X fixed it but Y crashes" keeps Y) or the cure was a change
    made to the backend (CHANGED): then only what it names as cured ("upgrading torch fixed it for SDPA") goes."""
    def blank(m: re.Match) -> str:
        s = m.group(0)
        if UNHEALTHY.search(re.sub(r"\b(?:problems?|issues?|nans?|crash|errors?)\b", " ", s, flags=re.IGNORECASE)):
            return s
        if CHANGED.search(s):
            a, b = m.span("cured")
            return s if a < 0 else s[:a - m.start()] + " " * (b - a) + s[b - m.start():]
        return " " * len(s)
    return CURED.sub(blank, line)


# helper ex66 (session 10; benchmarks/results/explain-wrong-backend-s10.md, tests/test_explain_variants_ex66.py): a backend named
# as the side of a contrast where the failure does NOT happen is not the failing one: "It happens with SageAttention, but not
# with PyTorch SDPA" (city96/ComfyUI-GGUF#250), "NaN gradients; SDPA doesn't, FA3 does", "出现Nan 的梯度，SDPA 不会，用npu 的
# flash-attention 会" (MinghuasLab/flash-attention-npu#77). Two shapes: "not with/using/on X" (up to three words, to the clause's
# end or a parenthesis), and an elliptic clause of a name and a bare negation ("SDPA doesn't", "xformers does not", "SDPA 不会");
# blanked only where the rest of the line still names a backend (the failing side), as REPLACED is
NOT_WITH = _R.compile(r"\bnot[ \t]+(?:with|using|when using|on|under|via|through)[ \t]+(?:the[ \t]+)?"
                      r"(?:[^\s,;:.!?()，；。]|\.(?=\w))+(?:[ \t]+(?:[^\s,;:.!?()，；。]|\.(?=\w))+){0,2}", re.IGNORECASE)
ELLIPTIC_NOT = _R.compile(r"^[ \t]*(?:but[ \t]+|while[ \t]+|whereas[ \t]+|and[ \t]+)?(?:with[ \t]+|using[ \t]+|用)?"
                          r"[`'\"]?[\w./-]{2,40}[`'\"]?(?:[ \t]+[\w./-]{1,20}){0,1}[ \t]*"
                          r"(?:does(?:n't| not)|did(?:n't| not)|won't|will not|is(?:n't| not) affected|不会|没有|没事|不会出现)"
                          r"[ \t]*$", re.IGNORECASE)
CONTRAST_BREAK = _R.compile(r"([,;，；。]|[.!?](?=\s|$))")
# (an elliptic negation answers the failure the line states elsewhere: "NaN gradients; SDPA doesn't". Without one it may answer a
# question, "Does it run on a 5090? FA3 doesn't", and then says the backend fails)
FAILURE_STATED = _R.compile(r"(?<![A-Za-z])(?:nan|inf|errors?|fail\w*|crash\w*|hang\w*|broken|wrong|garbage|black)(?![A-Za-z])|"
                            r"报错|错误|失败|崩溃|异常", re.IGNORECASE)


# helper ex66: examples in running prose, closed by "etc." or "and so on", or opened by "other backends like/such as": "how do you
# see it working with other backends, like SageAttention, Sparse attention etc?" (sgl-project/sglang#34389), "other kernels such
# as FA3 or xformers": examples of what else exists, not the failing backend (the parenthesised form is EXAMPLES); kept where every
# item names one and the same backend (a list of one backend's functions is about it: _list_removed). An item starts with a
# character that is no blank (review rev29): where it could start with the blanks after the comma, each comma of a list with no
# closing "etc." doubled the ways to try it ("such as a, b, c, ..." of 25 items: a minute on one line). The list after "other
# backends like" reads up to seven items: its items may hold "or" / "and", which also part them (two ways each), and it always
# ends in a match, so the bound costs nothing but what benchmarks/explain_backtracking.py would name
PROSE_EXAMPLES = _R.compile(r"\b(?:like|such as|e\.g\.,?|for example|including)[ \t]+((?:[^,;:.!?()\n \t][^,;:.!?()\n]{0,39}?,[ \t]*)+"
                            r"(?:(?:and|or)[ \t]+)?[^,;:.!?()\n \t][^,;:.!?()\n]{0,39}?),?[ \t]*(?:etc\b\.?|and so on\b|and (?:many )?(?:more|others)\b|…|\.\.\.)|"
                            r"\bother[ \t]+(?:attention[ \t]+)?(?:backends?|kernels?|implementations?|libraries|options)[ \t]*,?[ \t]*"
                            r"(?:like|such as|e\.g\.,?|including)[ \t]+((?:[^,;:.!?()\n \t][^,;:.!?()\n]{0,39}?(?:,|\bor\b|\band\b)[ \t]*){1,6}"
                            r"[^,;:.!?()\n \t][^,;:.!?()\n]{0,39})", re.IGNORECASE)


# helper ex119 (session 20; round 77 hanamizuki-ai/launcher-support#160: "启动器默认会带--use-pytorch-cross-attention参数无法直接关闭，
# 导致sage attention失效", the launcher's SDPA flag causing SageAttention to go unused): in "A causes B to fail" the backend B, named
# right after the word of cause and followed by a failure, is what failed; A, named before that word in the same sentence, is the
# cause (a flag, a setting, another library). "导致", "致使", "使得", "造成", "causes/caused/causing", "leads/led to", "makes/made",
# "results in", "breaks" (transitive; a word, not make's "make[2]: *** [...] Error 1"); blanked only where B is a backend named within
# a few words after the word of cause
EFFECT = _R.compile(r"(?:导致|致使|使得|造成|(?<![A-Za-z])(?:caus(?:es|ed|ing)|leads?[ \t]+to|led[ \t]+to|leading[ \t]+to|"
                    r"makes?|made|making|results?[ \t]+in|resulted[ \t]+in|resulting[ \t]+in|breaks?|broke|breaking)(?=[ \t]))",
                    re.IGNORECASE)
EFFECT_FAILURE = _R.compile(r"(?<![A-Za-z])(?:fail\w*|crash\w*|break\w*|broken|ignored|ineffective|unusable|unused|disabled|"
                            r"(?:not|never|stop\w*)[ \t]+(?:to[ \t]+)?(?:work\w*|load\w*|be[ \t]+used|run\w*|tak\w*[ \t]+effect)|error\w*|nan)(?![A-Za-z])|"
                            r"失效|报错|无法|不能|失败|崩溃|出错|不生效|不工作|用不了", re.IGNORECASE)
EFFECT_SENTENCE = _R.compile(r"[^.!?。！？\n]+")


def _effect_removed(line: str) -> str:
    """`line` with the cause of "A causes B to fail" blanked (EFFECT), where B is a backend of the seven."""
    def blank(sm: re.Match) -> str:
        s = sm.group(0)
        for m in EFFECT.finditer(s):
            after = s[m.end():]
            hit = _first_rule(after[:40])  # (the rules alone, not first_named: no _scrub within _scrub)
            if hit is None or hit[0] not in BACKENDS or not EFFECT_FAILURE.search(after[:120]):
                continue
            if not any(b != hit[0] and rx.search(s, 0, m.start()) for b, rx in rules().seven):
                continue  # the cause names no other backend: nothing to take from it
            return " " * m.start() + s[m.start():]
        return s
    return EFFECT_SENTENCE.sub(blank, line)


# helper ex168 (session 29; benchmarks/results/explain-recurring-s29.md: "fa3 -> fa2" at the first measurement of four blind
# rounds): after a clause that says something works, "not with X" negates that health, and X is the failing side ("It works with
# FA2 but not with FA3", "Loads fine on xformers, not on sage attention"): kept, and HEALTHY's clause names no failing backend.
# After a failure ("NaN with SageAttention, but not with SDPA") it stays the side that does not fail
def _not_with_blanked(m: re.Match) -> str:
    before = SENTENCE_END.split(m.string[:m.start()])[-1]  # the sentence up to "not with X"
    if HEALTHY.search(before) and not FAILURE_STATED.search(before) and not UNHEALTHY.search(HEALTHY.sub(" ", before)):
        return m.group(0)
    return _blanked(m)


def _contrast_removed(line: str) -> str:
    """`line` without a contrast's side that does not fail ("but not with SDPA", "SDPA doesn't"), where the rest still names a
    backend."""
    kept = NOT_WITH.sub(_not_with_blanked, line)
    parts = CONTRAST_BREAK.split(kept)
    for k in range(0, len(parts), 2):
        if ELLIPTIC_NOT.match(parts[k]) and _first_rule(parts[k]) not in (None, ("none", False)) \
                and any(FAILURE_STATED.search(x) for n, x in enumerate(parts) if n != k):
            parts[k] = " " * len(parts[k])
    kept = "".join(parts)
    if kept == line:
        return line
    return kept if any(rx.search(kept) for _, rx in rules().seven) else line


# helper ex66: a backend offered as the cure, in advice ("The easiest solution is to use SDPA", "Please use xformers instead",
# "you could try switching to FlexAttention instead", "I'd recommend using flash-attn 2.6.3"): what to do next, not what failed.
# Not advice to stop using a backend ("the solution is not to use sageattention", "the fix is to disable xformers"): that names
# the backend as the failure's part, as CHANGED does for a cure
ADVICE = _R.compile(r"\b(?:(?:easiest|simplest|best|quickest|only|possible|temporary|current|a|one|the)[ \t]+)*(?:solution|workaround|fix)"
                    r"[ \t]+(?:for[ \t]+(?:now|me|this|that)[ \t]+)?(?:is|was|would be)[ \t]+(?:to[ \t]+)?"
                    r"(?:use|using|switch(?:ing)?[ \t]+to|install(?:ing)?|go(?:ing)?[ \t]+with)\b(?:[^.;!?\n]|\.(?=\w))*|"
                    r"\bI(?:[’']d|[ \t]+would)[ \t]+(?:suggest|recommend)(?:[ \t]+you)?[ \t]+(?:to[ \t]+)?(?:use|using|try|trying|"
                    r"switch(?:ing)?[ \t]+to|install(?:ing)?)\b(?:[^.;!?\n]|\.(?=\w))*|"
                    r"(?:^[^\w\n]*|(?<=[.!?:;][ \t])|\b(?:you[ \t]+(?:can|could|should|may|might)|please|just)[ \t]+)"
                    r"(?:try[ \t]+(?:using[ \t]+|switching[ \t]+to[ \t]+)?|use[ \t]+|switch[ \t]+to[ \t]+)"
                    r"[^.;!?\n]{1,60}?[ \t]+instead\b(?![ \t]+of)", re.IGNORECASE)


# helper ex86 (session 13; round 63m: hpcaitech/Open-Sora#559, round 76: NVIDIA-NeMo/Automodel#1165): a fallback proposed for when a
# backend is absent ("Use PyTorch scaled_dot_product_attention when Flash Attention is not available"; "For cases where FA is
# unavailable, switch `attn_implementation` to `sdpa` instead of `flash_attention_2`"): the backend proposed is the cure, the one
# absent the report's subject. Only the proposal is blanked (an imperative or a modal's "use / switch ... to / fall back to / default
# to", up to the condition, or after it), never "instead of X" (what it replaces), and only where the rest still names a backend.
ABSENT_WORDS = (r"(?:is[ \t]+not[ \t]+available|isn[’']t[ \t]+available|is[ \t]+unavailable|unavailable|is[ \t]+not[ \t]+installed|"
                r"isn[’']t[ \t]+installed|not[ \t]+installed|cannot[ \t]+be[ \t]+imported|can[’']t[ \t]+be[ \t]+imported|"
                r"could[ \t]+not[ \t]+be[ \t]+imported|fails?[ \t]+to[ \t]+(?:import|load|build)|is[ \t]+missing|is[ \t]+absent|"
                r"is[ \t]+not[ \t]+supported)\b")
PROPOSAL = r"(?:use|switch(?:[ \t]+[^\s.;!?]{1,40}){0,4}?[ \t]+to|fall[ \t]*back[ \t]+to|default[ \t]+to|prefer)\b"
CURE_WHEN_ABSENT = _R.compile(
    r"(?:^[^\w\n]*(?:\[[^\]\n]{1,20}\][ \t]*)?|(?<=[.!?:;,][ \t])|\b(?:please|should|could|can|to|we|will|must|let[’']?s)[ \t]+)"
    r"(?P<cure>" + PROPOSAL + r"(?:(?!\b(?:instead[ \t]+of|rather[ \t]+than)\b)(?:[^.;!?\n]|\.(?=\w))){1,80}?)"
    r"(?=[ \t]+(?:when|if|whenever|where|in[ \t]+case|unless)\b[^.;!?\n]{0,60}?\b" + ABSENT_WORDS + r")|"
    r"\b(?:when|if|whenever|where|in[ \t]+case|for[ \t]+cases?[ \t]+where)\b[^.;!?\n,]{0,60}?\b" + ABSENT_WORDS +
    r"[^,;\n]{0,20}?[,;][ \t]*(?P<cure2>" + PROPOSAL + r"(?:(?!\b(?:instead[ \t]+of|rather[ \t]+than)\b)(?:[^.;!?\n]|\.(?=\w)))*)",
    re.IGNORECASE)


def _cure_when_absent_removed(line: str) -> str:
    """`line` without the fallback it proposes for a backend's absence (CURE_WHEN_ABSENT), where the rest still names a backend."""
    if len(line) > 1000:
        return line  # a sentence that proposes a fallback is short; a long line is a log's blob
    def blank(m: re.Match) -> str:
        g = "cure" if m.group("cure") is not None else "cure2"
        a, b = m.span(g)
        return m.group(0)[:a - m.start()] + " " * (b - a) + m.group(0)[b - m.start():]
    kept = CURE_WHEN_ABSENT.sub(blank, line)
    if kept == line:
        return line
    return kept if any(rx.search(kept) for _, rx in rules().seven) else line


def _advice_removed(m: re.Match) -> str:
    """The advice blanked, unless it is to stop using a backend or its sentence goes on to say a failure ("Use SageAttention
    instead: it crashes at import" reports that it fails too), or it names no backend (a message's own advice, "Please use
    return_aux=AuxRequest(lse=True) instead", is part of the message a rule names)."""
    rest = re.match(r"[^.!?\n]*", m.string[m.end():]).group(0)
    if NOT_ADVICE.search(m.group(0)) or FAILURE_STATED.search(rest) or _first_rule(m.group(0)) in (None, ("none", False)):
        return m.group(0)
    return " " * len(m.group(0))


NOT_ADVICE = _R.compile(r"\bnot\b|n't\b|\b(?:disabl\w*|remov\w*|uninstall\w*|turn\w* off|without)\b|--(?:no|disable)[-_]", re.IGNORECASE)


# ex35b (session 35, issue 23): a line that names several backends and says that only one of them fails ("I tried sdpa, xformers
# and flash_attention_2; only flash_attention_2 gives NaN", "xformers, SDPA, FA2: only with sage it crashes", "只有 sageattention
# 出黑图", "только с sageattention чёрный экран") is about that one: the other clauses are blanked. Not "only" as a limit ("FA2 only
# supports Ampere", "only works on sm80"): the clause must say a failure after the backend's name
ONLY_ONE = _R.compile(r"(?:(?<![\w-])(?:only|" + "|".join(ONLY_WORDS) + r")(?![\w-])|只有|仅有|仅|唯独|だけ)[ \t]*(?:(?:with|when[ \t]+using|using|"
                      r"on|under|mit|con|com|avec|с|用|使用)[ \t]+)?", re.IGNORECASE)


def _only_one_kept(line: str) -> str:
    """`line` with only the clause that says one backend alone fails (ONLY_ONE, a backend's name within 40 characters after it,
    FAILURE_STATED after the name), where another clause names a backend too; else the line as it is."""
    if len(line) > 600:
        return line
    seven = rules().seven
    parts = CLAUSE_BREAK.split(line)
    for k in range(0, len(parts), 2):
        clause = parts[k]
        m = ONLY_ONE.search(clause)
        if m is None:
            continue
        after = clause[m.end():]
        hits = [h for _, rx in seven for h in [rx.search(after)] if h is not None and h.start() <= 40]
        if not hits or not FAILURE_STATED.search(after[min(h.end() for h in hits):]):
            continue
        others = [n for n in range(0, len(parts), 2) if n != k and any(rx.search(parts[n]) for _, rx in seven)]
        if not others:
            return line
        return "".join(x if n == k or n % 2 else " " * len(x) for n, x in enumerate(parts))
    return line


# ex35b (session 35, issue 23: a text that names several backends is about the one that failed): a clause or an aside that only
# says a backend is installed or present ("flash-attn is installed, but xformers raises ...", "(I also have xformers and flash-attn
# installed)", "I have FA2 2.7.4 installed but SDPA gives NaN", "After installing flash-attn 2.8, xformers crashes with ...",
# "已经安装了 flash-attn，但是 xformers 报错") lists what is there, as a package list does ([inventory]), beside the clause that says
# what fails: blanked where the rest of the line still names a backend. Not a clause with a word of failure or a condition
# ("flash-attn is installed but fails to import", "if flash-attn is installed"), one that says it caused the failure ("because
# flash-attn is installed"), nor one beside a selection that passes the installed backend over ("SageAttention installed but
# ComfyUI still uses xformers": its subject is the selection of the installed one, app.backend-selection-ignored)
INSTALLED = _R.compile(r"(?<![\w-])(?:installed|present)(?![\w-])|\b(?:after|since|once|upon)[ \t]+(?:I[ \t]+|we[ \t]+)?(?:re-?)?install(?:ing|ed)?\b|"
                       r"已(?:经)?安装|安装了|已装|装了|インストール(?:済み|されて|して(?:い|あ))|(?<!\w)установлен\w*", re.IGNORECASE)
INSTALLED_BREAK = _R.compile(r"([,;，；、()（）]|" + FULL_STOP + r"|\bbut\b|\bhowever\b|\bwhile\b|\bwhereas\b|\band\b|"
                             r"但是?|可是|不过|が、|(?<!\w)(?:но|а|aber|mais|pero|mas)(?!\w))", re.IGNORECASE)
INSTALL_WHEN = _R.compile(r"\b(?:because|caus\w*|broke\w*|break\w*|due)\b|导致|因为", re.IGNORECASE)
ASIDE = _R.compile(r"[(（][^()（）\n]{1,120}[)）]")
SELECTION_KEPT = _R.compile(r"(?<![\w-])(?:still|instead|ignor\w*|fall\w*[ \t]+back|fell[ \t]+back|fallback|default\w*[ \t]+to|"
                            r"(?:not|n't|never)[ \t]+(?:being[ \t]+|been[ \t]+|be[ \t]+)?(?:use|used|using|select\w*|detect\w*|found|"
                            r"find|load\w*|recogni[sz]\w*|pick\w*|enabl\w*|activat\w*|see|seen|chos\w*))(?![\w-])|仍|还是|依然|未|没",
                            re.IGNORECASE)
# (a word of failure or a negation in the installed clause itself: "flash-attn is installed but fails", "not installed")
INSTALL_FAILS = _R.compile(r"(?<![A-Za-z])(?:nan|inf|errors?|fail\w*|crash\w*|hang\w*|broken|wrong|garbage|black|not|no|never|n't|only|"
                           r"if|unless|whether|cannot|can't|unable|missing|mismatch\w*|incompatible|wrongly|partially|half)(?![A-Za-z])|n't\b|"
                           r"报错|错误|失败|崩溃|异常|不|没|未|(?<!\w)(?:" + "|".join(NOT_WORDS) + r")(?!\w)|" + "|".join(JA_NOT), re.IGNORECASE)


# ex35b (session 35): a run of packages with their versions joined by "+", a comma, "/" or "&" ("flash_attn 2.7.4.post1 + xformers 0.0.29.post3 +
# torch 2.6: SageAttention import fails ...", "torch==2.7.1, xformers==0.0.31, sageattention==2.2.0") is the environment the
# writer runs, not the backend that failed: blanked where the rest of the line still names a backend (as a version list on its
# own line is [inventory])
PKG_VERSION = r"[A-Za-z][\w.-]{1,40}?[ \t]*(?:===?|@|[ \t])[ \t]*v?\d+\.\w+(?:\.\w+)*(?:[+-][\w.]+)?"
VERSION_RUN = _R.compile(r"(?<![\w.-])" + PKG_VERSION + r"(?:[ \t]*(?:\+|,|/|&)[ \t]*" + PKG_VERSION + r")+(?![\w.-])")


def _version_run_removed(line: str) -> str:
    """`line` without its runs of packages with versions (VERSION_RUN), where the rest still names a backend."""
    if len(line) > 600:
        return line
    kept = VERSION_RUN.sub(lambda m: " " * len(m.group(0)), line)
    return kept if kept != line and any(rx.search(kept) for _, rx in rules().seven) else line


def _installed_removed(line: str) -> str:
    """`line` with each clause or aside that only says a backend is installed blanked (INSTALLED), where the rest still names
    a backend and does not say a selection passed it over (SELECTION_KEPT); else the line as it is."""
    if len(line) > 600:
        return line  # a sentence; a long line is a log's blob
    seven = rules().seven
    # an aside in parentheses that says what is installed, whole ("(I also have xformers and flash-attn installed)")
    line0, line = line, ASIDE.sub(lambda m: m.group(0) if INSTALL_WHEN.search(m.group(0)) or INSTALL_FAILS.search(m.group(0))
                                  or not INSTALLED.search(m.group(0)) else " " * len(m.group(0)), line)
    parts = INSTALLED_BREAK.split(line)  # clauses at even indexes, their separators at odd ones
    blank = set()
    for k in range(0, len(parts), 2):
        clause = parts[k]
        if INSTALLED.search(clause) and not INSTALL_WHEN.search(clause) and not INSTALL_FAILS.search(clause) \
                and any(rx.search(clause) for _, rx in seven):
            blank.add(k)
            b = k - 2  # the short start of its list ("xformers and flash-attn installed")
            while b >= 0 and parts[b + 1].strip().lower() in ("and", ",", "，", "、") and len(parts[b].split()) <= 3 \
                    and parts[b].strip() and not INSTALL_FAILS.search(parts[b]) and not INSTALL_WHEN.search(parts[b]):
                blank.add(b)
                b -= 2
    if not blank and line == line0:
        return line0
    rest = "".join(" " * len(x) if n in blank else x for n, x in enumerate(parts))
    if not any(rx.search(rest) for _, rx in seven) or SELECTION_KEPT.search(
            "".join(x for n, x in enumerate(parts) if n % 2 == 0 and n not in blank)):
        return line0
    return rest


# helper ex114 (round 105m: huggingface/transformers#32848, `        # attn_implementation="flash_attention_2",` in the reproduction of
# a default-attention (SDPA) failure): a line of code commented out (a keyword or an assignment alone on the line, a method call, an
# import) is not what ran; a title ("# flash_attn=2.7 crashes on ...") goes on past its one token
COMMENTED_OUT = _R.compile(r"^[ \t]*#+[ \t]*(?:[A-Za-z_][\w.\[\]'\"]*[ \t]*=(?!=)[ \t]*[^\s=][^\s]*?,?|[A-Za-z_][\w.]*\.[A-Za-z_]\w*\([^\n]*\)[ \t]*,?"
                           r"|(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*(?:[ \t]+as[ \t]+\w+)?)[ \t]*$")


def _scrub(line: str) -> str:
    """The line without what names no failing backend: issue links, the backend it falls back to, one switched off,
    a clause that says a backend works, examples, what something replaced, lists of choices."""
    if "#" in line and COMMENTED_OUT.match(line):
        return " " * len(line)
    if "github.com" in line:
        line = THREAD_LINK.sub(" ", line)
    low0 = line.lower()
    if "cannot import name" in low0:
        line = _class_of_other_module_removed(line)
    if "`" in line and line.count("`") >= 6:
        line = SPANS.sub(_list_removed, line)
    if any(w in low0 for w in ("one of", "choose from", "values", "options", "choices")):
        line = OPTIONS.sub(_list_removed, line)
    if "{" in line:
        line = BRACED_CHOICES.sub(_choices_removed, line)
    if ":" in line and any(w in low0 for w in ("valid", "supported", "allowed", "available", "possible")):
        line = LISTED_CHOICES.sub(_choices_removed, line)
    low = line.lower()
    if "--" in line and ("--disable" in low or "--no" in low):
        line = SWITCHED_OFF_FLAG.sub(" ", line)
    if "not installed!" in low:
        line = ABSENT_BANNER.sub(" ", line)
    if " in " in low and ("also" in low or "too" in low):
        line = OTHER_PROGRAM.sub(_blanked, line)
    if "(" in line:
        line = EXAMPLES.sub(_examples_removed, line)
    if ":" in line or "=" in line:
        line = CONFIG_OFF.sub(_blanked, line)
    if "ATTENTION_BACKEND" in line or "ATTN_BACKEND" in line or "-backend" in line:
        line = ENGINE_SELECTOR_STILL.sub(_blanked, line)
    if "?" in line or "？" in line:
        kept = SWITCH_QUESTION.sub(_blanked, line)
        line = kept if kept == line or any(rx.search(kept) for _, rx in rules().seven) else line
    if any(w in low for w in ("available", "installed", "import", "missing", "absent", "supported")):
        line = _cure_when_absent_removed(line)  # (before REPLACED: "instead of X" names the absent one; helper ex86)
    if any(w in low for w in ("instead of", "rather than", "from ", "because", "compared", "versus", "vs", "replac",
                              "outperform", "against", "relative to", "than", "match")):
        line = _replaced_removed(line)
    if "same" in low or "persist" in low:
        line = _persisted_removed(line)
    if any(w in low for w in (" like ", "such as", "e.g.", "for example", "including")):
        kept = PROSE_EXAMPLES.sub(_list_removed, line)  # only where the rest still names a backend, as REPLACED
        line = kept if kept == line or any(rx.search(kept) for _, rx in rules().seven) else line
    if ("not" in low or "n't" in low or "n\u2019t" in low) and "from" in low:
        line = _source_ruled_out_removed(line)
    if "not" in low or "n't" in low or "不会" in line or "没" in line:
        line = _contrast_removed(line)
    if any(w in low for w in ("caus", "lead", "led to", "make", "made", "result", "break", "broke", "导致", "致使", "使得", "造成")):
        line = _effect_removed(line)
    if any(w in low for w in ("solution", "workaround", "fix ", "suggest", "recommend", "instead")):
        line = ADVICE.sub(_advice_removed, line)
    if "instead" in low:
        line = USED_INSTEAD.sub(_used_instead_removed, line)
    if "tried" in low:
        line = TRIED.sub(_blanked, line)
    if " back to " in low or "fallback" in low or "fall-back" in low or any(w in line for w in ("回退", "退回", "降级", "切换回", "切回")):
        line = FALLBACK_TO.sub(" ", line)
    if "xformers is" in low:
        line = DINOV2_NOTICE.sub(" ", line)
    if " off" in low:
        line = SWITCHED_OFF.sub(" ", line)
    if "without" in low or "w/o" in low:
        line = _without_after_failure_removed(line)
    if any(w in low for w in CURE_WORDS):
        line = _cured_removed(line)
    if " to " in low and any(w in low for w in ("avoid", "fix", "prevent", "around", "circumvent", "bypass", "stop")):
        line = _cure_to_avoid_removed(line)
    if "wheel" in low or "build" in low:
        line = OFFER.sub(lambda m: m.group(0) if UNHEALTHY.search(m.group(0)) or FAILED.search(m.group(0))
                         else " " * len(m.group(0)), line)
    if ONLY_ONE.search(line):
        line = _only_one_kept(line)
    if HEALTHY.search(line) or PRAISE.search(line):
        line = _healthy_removed(line)
    if INSTALLED.search(line):
        line = _installed_removed(line)
    if VERSION_RUN.search(line):
        line = _version_run_removed(line)
    return line


def _subject_of_match(entry: Entry, lines: list[str], line: int, found: Attribution | None) -> str | None:
    """The backend of the seven that the entry's own match names, where the line that named another library is the failure's
    own line: "the flash attn and mmcv may not have pre-compiled wheel" (VisionXLab/mllm-mmrotate#6) names mmcv by a library's
    rule, which outranks flash attn's shared name within one line, but the entry's pattern reads flash attn as the subject of
    the failure; a line whose match names no attention backend (mmcv's own undefined symbol, its wheel) stays the library's
    (helper ex61, session 9)."""
    if found is None or found.backend not in ("foreign", "other") or found.line != line or not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    r = rules()
    for rx in entry.compiled:
        m = rx.search(text)
        if m is None:
            continue
        said = _scrub(m.group(0))
        b = first_named(said)
        if b not in BACKENDS:
            continue
        # the subject first: the backend's name stands before the library's on the line ("flash attn and mmcv may not have
        # ..."); a library's own path first (".../mmcv/_ext.so: undefined symbol: ... (after pip install flash-attn)") is that
        # library's failure, whatever the match reaches
        whole = _scrub(text)
        # helper ex65 (session 10): a library's name before the line's exception type is the tag of the program that logged
        # or wrapped it ("[detectron2] RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "mmdet: RuntimeError:
        # ..."): the line is read from the exception's message on, where the backend's name is the subject
        exc = EXCEPTION_TYPE.search(whole)
        if exc is not None and first_named(whole[:exc.start()]) is None and any(ox.search(whole, 0, exc.start()) for ox in r.not_seven):
            whole = whole[exc.start():]
        if _custom_op() is not None and _custom_op().search(whole):
            return None  # the model's own custom operator is what the line says fails, whatever its code calls the method ([custom_op])
        first_seven = min((n.start() for bb, sx in r.seven if bb == b for n in [sx.search(whole)] if n), default=None)
        first_other = min((n.start() for ox in r.not_seven for n in [ox.search(whole)] if n), default=None)
        if first_seven is not None and (first_other is None or first_seven < first_other):
            return b
    return None


@lru_cache(maxsize=1)
def _custom_op() -> re.Pattern | None:
    """[custom_op] in attribution.toml (helper ex197, session 35), compiled: a custom operator namespace none of the seven
    registers, named on a line."""
    d = _toml().get("custom_op")
    return re.compile(d["named"], re.IGNORECASE) if d else None


# a Python exception's type as a log line shows it, with its colon ("RuntimeError: ", "torch.OutOfMemoryError: ")
EXCEPTION_TYPE = _R.compile(r"(?<![\w.])(?-i:[A-Za-z_][\w.]*(?:Error|Exception)):[ \t]")


def _selection(entry: Entry, line: str) -> str:
    """Where a sentence about an ignored selection names what was selected: after 'despite setting', 'instead
    of' ("Still on SDPA despite setting flash_attention_2"), else the whole line (the first name is the subject)."""
    ids, words = rules().selected_after
    m = words.search(line) if words is not None and entry.id in ids else None
    return line[m.end():] if m and first_named(line[m.end():]) else line


# A sentence's opening clause of time or cause ("After installing xformers, flash attention 2 is no longer detected",
# "Since updating to torch 2.9, sageattention fails") names what came before; the main clause names what fails.
OPENING_CLAUSE = _R.compile(r"^\W*(?:after|since|when|once|whenever|before)\b[^,;:\n]{1,80}?(?:,|，)\s*", re.IGNORECASE)


def _main_clause(line: str) -> str:
    """The sentence after its opening clause of time or cause, where that part names a backend; else the whole."""
    m = OPENING_CLAUSE.match(line)
    return line[m.end():] if m and first_named(line[m.end():]) else line


# A monkey patch that replaces one backend's function with another's ("F.scaled_dot_product_attention = sageattn",
# "xformers.ops.memory_efficient_attention = flash_attn_func"): the replacement is what runs (round 23:
# thu-ml/SageAttention#55), so the line's subject is the backend named after the assignment.
PATCHED = _R.compile(r"\b(?:scaled_dot_product_attention|memory_efficient_attention|flash_attn_(?:varlen_)?func|flex_attention)"
                     r"[`'\"]?\s*=(?!=)\s*")


def first_named(line: str) -> str | None:
    """The backend a line names first (leftmost), by any library rule; None where it names none."""
    return _first_named(line, _Same(rules()))


class _Same:
    """A cache key for one rules object: equal only to itself (the rules are not hashable), and holding it, so that no
    later rules object (a test rebuilds them) can take its id while a result read under it is kept."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


# (each call runs ~620 library rules over the line, ~1 ms: kept for the lines read last, as long as the rules are the same
# object; `check` reads the same import error's line for each backend and each of its readings, perf19)
@lru_cache(maxsize=4096)
def _first_named(line: str, _rules: _Same) -> str | None:
    m = PATCHED.search(line)
    if m is not None:
        after = first_named(line[m.end():])
        if after is not None:
            return after
    best = None
    line = _scrub(line)
    r = rules()
    # a backend's word inside a match of a none/foreign/other rule is that rule's (round 12: MLX's
    # "[scaled_dot_product_attention] mismatching batch dimension" holds SDPA's function name, and is MLX's)
    seven = list(zip(r.seven, r.seven_shared))
    not_seven = r.not_seven
    at = _line_gate(r, line)
    if at is not None:  # only the rules whose needle the line holds (tables._rule_gate: a rule without one finds nothing)
        seven, not_seven = _picked(at, "seven", seven), _picked(at, "not_seven", not_seven)
    others = [m.span() for rx in not_seven for m in rx.finditer(line)]
    precise = None  # the leftmost name of the FlashAttention family that is no shared name
    for (backend, rx), shared in seven:
        m = next((m for m in rx.finditer(line) if not any(a <= m.start() < b for a, b in others)), None)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), backend, shared)
        if m and not shared and backend in FA_FAMILY and (precise is None or m.start() < precise[0]):
            precise = (m.start(), backend)
    if best is not None and best[2] and best[1] in FA_FAMILY and precise is not None:
        # a shared name first ("[Flash Attn] Add fallback import for FA3", ".../flash-attention/hopper/flash_api.cpp"), a precise one
        # of the same family later on the line: the precise one says which FlashAttention (helper ex57; within one line a file
        # or a precise name beats a shared one, as nearest() reads it)
        return precise[1]
    if best is not None and best[2] and best[1] in FA_FAMILY and precise is None \
            and any(a < best[0] and "flash" in line[a:b].lower() for a, b in others):
        # helper ex180 (session 32; round 172m: triton-lang/triton#1957, "with triton flash attention loss blows up ... without
        # Flash attention the loss is stable"): a FlashAttention that is none of the seven named first by its precise name (a
        # Triton port, a Volta fork: a none/other rule), the shared name later on the line goes back to it, as a precise name
        # of the family decides above
        return None
    return best[1] if best else None


FA_FAMILY = ("fa2", "fa3", "cute")  # the backends the shared FlashAttention names stand for


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
