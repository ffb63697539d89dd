"""from-config: real model configs (tests/configs/, each from its model's public repository) as .uap files."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import uapcheck
from uapcheck.from_config import ConfigError, config_to_uap, read_config

REPO = Path(__file__).resolve().parents[1]
CONFIGS = REPO / "tests" / "configs"


def uap_of(name: str) -> str:
    return config_to_uap(read_config((CONFIGS / name).read_bytes()), name)


def statements(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


# What each real config must become: the lines that carry its attention family.
EXPECTED_LINES = {
    "gpt2.json": ["tokens 1024", "heads 12", "pattern causal", "positional absolute", "ffn gelu", "target causal"],
    "mistral-7b-v0.1.json": ["tokens 32768", "rotary", "heads 32 kv 8", "pattern causal & window(4096)", "ffn silu",
                             "target causal"],
    "llama-2-7b-hf.json": ["tokens 4096", "rotary", "heads 32", "pattern causal", "ffn silu", "target causal"],
    "meta-llama-3-8b.json": ["tokens 8192", "rotary", "heads 32 kv 8", "pattern causal", "target causal"],
    "longformer-base-4096.json": ["tokens 4096", "heads 12", "pattern window(256)", "positional absolute"],
    "bigbird-roberta-base.json": ["tokens 4096", "heads 12",
                                  "pattern blockwise(64) { window(1) + global {1, 64} + random(3, seed=0) }",
                                  "positional absolute", "ffn gelu"],
    "deepseek-r1-distill-qwen-7b.json": ["tokens 131072", "rotary", "heads 28 kv 4", "pattern causal",
                                         "target causal"],
}


def test_every_config_in_the_test_set_has_its_expectation():
    assert sorted(p.name for p in CONFIGS.glob("*.json")) == sorted(EXPECTED_LINES)
    assert len(EXPECTED_LINES) >= 6


@pytest.mark.parametrize("name", sorted(EXPECTED_LINES))
def test_config_becomes_the_model_family(name):
    text = uap_of(name)
    lines = statements(text)
    for line in EXPECTED_LINES[name]:
        assert line in lines, (line, text)
    assert text.startswith(f"# Written by `uapcheck from-config` from {name}.")
    assert "layer normalisation" in text  # what the framework leaves out is said


def test_qwen_without_sliding_window_is_full_causal():
    text = uap_of("deepseek-r1-distill-qwen-7b.json")
    assert "window(" not in "\n".join(statements(text)) and "use_sliding_window is false" in text


@pytest.mark.parametrize("name", sorted(EXPECTED_LINES))
def test_the_written_file_checks(name):
    result = uapcheck.check(uap_of(name), name.replace(".json", ".uap"))
    assert result.verdict in ("UAP", "NOT-UAP", "INCONCLUSIVE")
    if "target causal" in statements(uap_of(name)):
        assert result.spec.target == "causal"


@pytest.mark.parametrize("config, message", [
    ({"model_type": "t5"}, "`model_type` = \"t5\" is not one the checker reads"),
    ({"model_type": "gpt2", "n_head": 12}, "`n_positions` must be an integer"),
    ({"model_type": "mistral", "max_position_embeddings": 64, "num_attention_heads": 32,
      "num_key_value_heads": 5}, "`num_key_value_heads` must divide"),
    ({"model_type": "longformer", "attention_window": [512, 256], "max_position_embeddings": 4098,
      "num_attention_heads": 12}, "differs between layers"),
    ({"model_type": "big_bird", "max_position_embeddings": 4096, "block_size": 60, "num_attention_heads": 12},
     "must divide"),
    ({"model_type": "gpt2", "n_positions": 8, "n_head": 2, "activation_function": "mish"}, "not an activation"),
    ([1, 2], "JSON object"),
])
def test_bad_configs_name_the_key(config, message):
    with pytest.raises(ConfigError, match=".*") as info:
        config_to_uap(config, "config.json")
    assert message in str(info.value)


def run(*args, cwd=REPO):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, cwd=cwd, timeout=600,
                          env={**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})


def test_cli_writes_the_file_then_checks_it(tmp_path):
    out = tmp_path / "mistral.uap"
    p = run("from-config", str(CONFIGS / "mistral-7b-v0.1.json"), "-o", str(out), "--short")
    assert p.returncode == 0, p.stderr.decode()
    assert out.read_text() == uap_of("mistral-7b-v0.1.json")
    assert p.stdout.decode().startswith(f"{out}: ")


def test_cli_prints_with_dash_and_refuses_broken_json(tmp_path):
    p = run("from-config", str(CONFIGS / "gpt2.json"), "-o", "-")
    assert p.returncode == 0 and p.stdout.decode() == uap_of("gpt2.json")
    bad = tmp_path / "config.json"
    bad.write_text("{not json")
    p = run("from-config", str(bad))
    assert p.returncode == 2 and b"not a JSON config" in p.stderr and b"Traceback" not in p.stderr
