"""`uapcheck from-config CONFIG.json`: a Hugging Face-style model config as a `.uap` file.

Each model family is a row of `FAMILIES`: which `model_type` values it covers, and a function from the
config to the file's statements. Only keys that change the attention family are read (the sequence
length, the attention pattern, positions, head sharing, the activation); everything the framework leaves
out (layer normalisation, dropout, vocabulary, widths) is named in the file's comments, so the file says
exactly what is modelled and what is not. Unknown model types and malformed values are errors that name
the key.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Mapping

Config = Mapping[str, object]


class ConfigError(ValueError):
    """The config cannot be turned into a .uap file (the message names the key or the model type)."""


# Activations of the configs, as the language's named activations (with what the name stands for).
ACTIVATIONS = {
    "relu": ("relu", None),
    "gelu": ("gelu", None),
    "gelu_new": ("gelu", "gelu_new (the tanh approximation of GELU) is written as gelu"),
    "gelu_pytorch_tanh": ("gelu", "gelu_pytorch_tanh (the tanh approximation of GELU) is written as gelu"),
    "gelu_fast": ("gelu", "gelu_fast (an approximation of GELU) is written as gelu"),
    "silu": ("silu", "the gated SwiGLU feed-forward layer is written as a silu FFN (Definition 2 concerns the "
                     "activation's affine-invariant family)"),
    "swish": ("silu", None),
    "tanh": ("tanh", None),
    "sigmoid": ("sigmoid", None),
}

OMITTED = "layer normalisation, dropout and the embedding/vocabulary are not part of the framework's family"


def _int(config: Config, key: str, minimum: int = 1) -> int:
    value = config.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"`{key}` must be an integer >= {minimum}, got {json.dumps(value)}")
    return value


def _ffn(config: Config, key: str, notes: list[str]) -> str:
    name = config.get(key, "gelu")
    if not isinstance(name, str) or name not in ACTIVATIONS:
        raise ConfigError(f"`{key}` = {json.dumps(name)} is not an activation the checker knows "
                          f"({', '.join(sorted(ACTIVATIONS))})")
    activation, note = ACTIVATIONS[name]
    if note:
        notes.append(note)
    return f"ffn {activation}"


@dataclass(frozen=True)
class Model:
    """What a family's reader found: the statements of the file and the notes on what they stand for."""
    architecture: str
    statements: tuple[str, ...]
    notes: tuple[str, ...]


def _decoder_heads(config: Config) -> str:
    heads = _int(config, "num_attention_heads")
    kv = config.get("num_key_value_heads", heads)
    kv = heads if kv is None else kv
    if isinstance(kv, bool) or not isinstance(kv, int) or kv < 1 or heads % kv:
        raise ConfigError(f"`num_key_value_heads` must divide `num_attention_heads` ({heads}), got {json.dumps(kv)}")
    return f"heads {heads}" + ("" if kv == heads else f" kv {kv}")


def _rotary_decoder(config: Config, family: str) -> Model:
    notes = [OMITTED, f"rotary position embedding (RoPE, rope_theta = {config.get('rope_theta', 10000)}): "
                      "the frequencies do not change the family's symmetry or the causal class"]
    n = _int(config, "max_position_embeddings")
    pattern = "causal"
    window = config.get("sliding_window")
    uses_window = config.get("use_sliding_window", True) is not False
    if window is not None and uses_window:
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ConfigError(f"`sliding_window` must be a positive integer or null, got {json.dumps(window)}")
        if window < n:
            # Mistral 7B (arXiv:2310.06825, §2): position i attends to positions i - W .. i.
            pattern = f"causal & window({window})"
            notes.append(f"sliding_window = {window}: position i attends to positions i - {window} .. i")
    elif window is not None:
        notes.append("use_sliding_window is false: full causal attention")
    statements = (f"tokens {n}", "attention {", "  kernel k(q, key) = exp(q . key)", "  rotary",
                  f"  {_decoder_heads(config)}", f"  pattern {pattern}", "}", _ffn(config, "hidden_act", notes),
                  "target causal")
    return Model(family, statements, tuple(notes))


def _gpt2(config: Config) -> Model:
    notes = [OMITTED, "learned absolute position embeddings: `positional absolute`"]
    n = _int(config, "n_positions")
    heads = _int(config, "n_head")
    statements = (f"tokens {n}", "attention {", "  kernel k(q, key) = exp(q . key)", f"  heads {heads}",
                  "  pattern causal", "}", "positional absolute", _ffn(config, "activation_function", notes),
                  "target causal")
    return Model("GPT-2", statements, tuple(notes))


def _longformer(config: Config) -> Model:
    notes = [OMITTED, "learned absolute position embeddings: `positional absolute`",
             "global attention is chosen per task at run time (e.g. on [CLS]); the config sets none, so none "
             "is modelled: add `+ global {1}` to the pattern for a classification model"]
    windows = config.get("attention_window")
    if isinstance(windows, list):
        if not windows or any(isinstance(w, bool) or not isinstance(w, int) for w in windows):
            raise ConfigError(f"`attention_window` must be an integer or a list of integers, got {json.dumps(windows)}")
        if len(set(windows)) != 1:
            raise ConfigError("`attention_window` differs between layers; per-layer windows are not read from "
                              "configs yet")
        windows = windows[0]
    if isinstance(windows, bool) or not isinstance(windows, int) or windows < 2 or windows % 2:
        raise ConfigError(f"`attention_window` must be an even integer >= 2, got {json.dumps(windows)}")
    # RoBERTa-style position ids start after the padding index: two of the positions are never used.
    n = _int(config, "max_position_embeddings", 3) - 2
    statements = (f"tokens {n}", "attention {", "  kernel k(q, key) = exp(q . key)",
                  f"  heads {_int(config, 'num_attention_heads')}", f"  pattern window({windows // 2})", "}",
                  "positional absolute", _ffn(config, "hidden_act", notes))
    notes.append(f"attention_window = {windows}: {windows // 2} positions on each side")
    notes.append(f"max_position_embeddings = {n + 2}: {n} usable positions (two are reserved by the "
                 "RoBERTa position ids)")
    return Model("Longformer", statements, tuple(notes))


def _big_bird(config: Config) -> Model:
    notes = [OMITTED, "learned absolute position embeddings: `positional absolute`"]
    n = _int(config, "max_position_embeddings")
    kind = config.get("attention_type", "block_sparse")
    if kind == "original_full":
        pattern = "full"
    elif kind == "block_sparse":
        b = _int(config, "block_size")
        if n % b:
            raise ConfigError(f"`block_size` = {b} must divide max_position_embeddings = {n}")
        r = _int(config, "num_random_blocks", 0)
        blocks = n // b
        parts = ["window(1)", f"global {{1, {blocks}}}"] + ([f"random({r}, seed=0)"] if r else [])
        pattern = f"blockwise({b}) {{ {' + '.join(parts)} }}"
        notes.append(f"BigBird-ITC: blocks of {b}; 3 sliding blocks, the first and last block global, {r} random "
                     "blocks per query block (drawn here with seed 0)")
    else:
        raise ConfigError(f"`attention_type` = {json.dumps(kind)} is neither block_sparse nor original_full")
    statements = (f"tokens {n}", "attention {", "  kernel k(q, key) = exp(q . key)",
                  f"  heads {_int(config, 'num_attention_heads')}", f"  pattern {pattern}", "}",
                  "positional absolute", _ffn(config, "hidden_act", notes))
    return Model("BigBird", statements, tuple(notes))


FAMILIES: dict[str, Callable[[Config], Model]] = {
    "gpt2": _gpt2,
    "llama": lambda c: _rotary_decoder(c, "Llama"),
    "mistral": lambda c: _rotary_decoder(c, "Mistral"),
    "mixtral": lambda c: _rotary_decoder(c, "Mixtral"),
    "qwen2": lambda c: _rotary_decoder(c, "Qwen2"),
    "longformer": _longformer,
    "big_bird": _big_bird,
}


def config_to_uap(config: Config, source: str) -> str:
    """The .uap text for a model config (`source` names the config file in the file's header)."""
    if not isinstance(config, Mapping):
        raise ConfigError("the config must be a JSON object")
    model_type = config.get("model_type")
    if model_type not in FAMILIES:
        known = ", ".join(sorted(FAMILIES))
        raise ConfigError(f"`model_type` = {json.dumps(model_type)} is not one the checker reads ({known})")
    model = FAMILIES[str(model_type)](config)
    names = config.get("architectures")
    title = f"{model.architecture} ({names[0]})" if isinstance(names, list) and names and isinstance(names[0], str) \
        else model.architecture
    lines = [f"# Written by `uapcheck from-config` from {source}.", "# What the statements stand for:"]
    lines += [f"#   - {note}" for note in model.notes]
    lines += [f'architecture "{_quote(title)}"', f'cite "model config {_quote(source)}"', *model.statements]
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return "".join(ch for ch in text if ch.isprintable() and ch not in '"\\')


def read_config(data: bytes) -> Config:
    try:
        config = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"not a JSON config: {exc}") from None
    if not isinstance(config, dict):
        raise ConfigError("the config must be a JSON object")
    return config
