#!/usr/bin/env python3
"""Writes the seed corpora tests/fuzz/corpus/<target>/ from real inputs: trimmed data/*.json, the scenarios of
tests/validation/*.json, the guide's and tests' scenarios, links and saved state made from them, and command
lines. Run from the repository root when the formats change; the files it writes are committed (small).
Seeds are named by content hash (libFuzzer's convention), so a rerun rewrites the same names.
Usage: tests/fuzz/make_corpus.py [NAME...]: only those corpora and dictionaries (fuzz_training_config,
training_config.dict); none named: all of them."""
import base64, hashlib, json, os, re, shutil, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, "tests", "fuzz", "corpus")

def load(path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return json.load(f)

def compact(doc):
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))

only = set(sys.argv[1:])

def write(target, items):
    if only and target not in only:
        return
    d = os.path.join(out, target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    seen = set()
    for item in items:
        data = item.encode("utf-8") if isinstance(item, str) else item
        h = hashlib.sha1(data).hexdigest()
        if h in seen:
            continue
        seen.add(h)
        with open(os.path.join(d, h), "wb") as f:
            f.write(data)
    print(f"{target}: {len(seen)} seeds")

gpus, offers, settings = load("data/gpus.json"), load("data/cloud_offers.json"), load("data/settings.json")

def few(gpu_ids, offer_pred=None, max_offers=3):
    g = dict(gpus); g["gpus"] = [x for x in gpus["gpus"] if x["id"] in gpu_ids]
    o = dict(offers); o["offers"] = [x for x in offers["offers"] if x["gpu"] in gpu_ids and (offer_pred is None or offer_pred(x))][:max_offers]
    g.pop("about", None); o.pop("about", None)
    return g, o

# --- catalog: GPUS \0 OFFERS \0 SETTINGS, a few records each ---------------------------------------------------
catalog_seeds = []
by_vendor = {}
for x in gpus["gpus"]:
    by_vendor.setdefault((x.get("vendor"), x.get("segment")), []).append(x["id"])
groups = [ids[:2] for ids in by_vendor.values()]
groups.append(["rtx-4090", "rtx-3060-12gb"])
for ids in groups:
    g, o = few(ids)
    catalog_seeds.append(compact(g) + "\0" + compact(o) + "\0" + compact(settings))
billings = sorted({x.get("billing") for x in offers["offers"]})
for b in billings:
    gid = next(x["gpu"] for x in offers["offers"] if x.get("billing") == b)
    g, o = few([gid], lambda x, b=b: x.get("billing") == b, 1)
    catalog_seeds.append(compact(g) + "\0" + compact(o) + "\0" + compact(settings))
catalog_seeds.append("{}\0{}\0{}")
write("fuzz_catalog", catalog_seeds)

# --- user data: {"schema_version": 1, "gpus": [...], "offers": [...]} ------------------------------------------
g4090 = next(x for x in gpus["gpus"] if x["id"] == "rtx-4090")
o4090 = next(x for x in offers["offers"] if x["gpu"] == "rtx-4090")
mine = dict(g4090, id="my-card", name="My card")
minimal = {k: mine[k] for k in ("id", "name", "memory_gib", "memory_bandwidth_gb_per_s", "dense_tflops")}
minimal_offer = {k: o4090[k] for k in ("provider", "gpu_count", "price_per_hour", "currency", "billing")}
minimal_offer.update(id="my-offer", gpu="my-card")
monthly = next((x for x in offers["offers"] if x.get("billing") == "monthly"), None)
user = [
    {"schema_version": 1, "gpus": [minimal]},
    {"schema_version": 1, "gpus": [minimal], "offers": [minimal_offer]},
    {"schema_version": 1, "gpus": [mine]},
    {"schema_version": 1, "gpus": [dict(g4090, street_price_cny=None)]},
    {"schema_version": 1, "offers": [dict(o4090, id="cheaper", price_per_hour=1.0)]},
    {"schema_version": 1, "offers": [dict(minimal_offer, gpu="rtx-3060-12gb")]},
    {"schema_version": 1},
]
if monthly:
    user.append({"schema_version": 1, "gpus": [minimal], "offers": [dict(monthly, id="m", gpu="my-card")]})
write("fuzz_user_data", [compact(u) for u in user] + ["{}", "[]", ""])

# --- scenarios --------------------------------------------------------------------------------------------------
scenarios = []
for name in sorted(os.listdir(os.path.join(root, "tests", "validation"))):
    if not name.endswith(".json"):
        continue
    doc = load(os.path.join("tests", "validation", name))
    for c in doc.get("cases", []) if isinstance(doc, dict) else []:
        if isinstance(c, dict) and isinstance(c.get("scenario"), dict):
            scenarios.append(c["scenario"])
for name in sorted(os.listdir(os.path.join(root, "data", "text", "guide"))):  # the guide's "try it" examples
    if name.endswith(".json"):
        scenarios += [t["scenario"] for t in load(os.path.join("data", "text", "guide", name)).get("try_it", [])]
for path in ("src/ui/app.cpp",):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        for m in re.finditer(r'R"\((\{"model".*?\})\)"', f.read()):
            try:
                scenarios.append(json.loads(m.group(1)))
            except json.JSONDecodeError:
                pass
# Custom models, one per family, and decision keys (docs/decisions.md).
scenarios += [
    {"model": {"family": "decoder", "layers": 4, "hidden": 256, "heads": 4, "kv_heads": 2, "ffn": 688, "vocab": 32000,
               "glu": True, "norm": "rmsnorm", "position": "rope", "activation": "silu", "experts": 4, "top_k": 2},
     "batch_size": 2, "seq_len": 512, "precision": "bf16-amp", "gpu": {"id": "rtx-4090"}},
    {"model": {"family": "encoder", "layers": 2, "hidden": 128, "heads": 2, "ffn": 512, "vocab": 30522,
               "max_positions": 512}, "batch_size": 8, "seq_len": 128},
    {"model": {"family": "vit", "image_size": 224, "patch": 16, "layers": 2, "hidden": 192, "heads": 3, "ffn": 768,
               "classes": 10}, "batch_size": 8, "image_size": 224, "gpu": {"id": "rtx-3060-12gb"}},
    {"model": {"family": "resnet", "depths": [2, 2, 2, 2], "block": "basic", "width": 64, "classes": 10},
     "batch_size": 32, "image_size": 64, "optimizer": "sgd-momentum"},
    {"model": {"family": "unet", "base_channels": 32, "depth": 3, "classes": 2, "in_channels": 3},
     "batch_size": 4, "image_size": 256, "gpu": {"id": "rtx-4090"}},
    {"model": "llama-3.1-8b", "batch_size": 2, "grad_accum_steps": 8, "seq_len": 4096, "precision": "nf4",
     "optimizer": "adamw-8bit", "method": "qlora", "lora": {"rank": 64, "targets": ["q", "k", "v", "o"], "dropout": 0.05},
     "checkpointing": "full", "attention": "flash", "reserve_fraction": 0.1, "dataset": {"tokens": 1e9}},
    {"model": "gpt2", "gpu": {"count": 8, "strategy": "zero3", "interconnect": "nvlink"}, "offload_optimizer": True,
     "tunables": {"cuda_context_bytes": 3e8, "fragmentation_fraction": 0.05}},
    {"model": "bert-base", "batch_size": 16, "seq_len": 512, "precision": "fp32", "gpu": {"id": "rtx-4090"},
     "dataset": {"samples": 50000, "epochs": 3}, "budget": {"amount": 8000, "currency": "CNY"}, "deadline_h": 24,
     "region": "cn", "objective": "value", "ownership": "both", "electricity_per_kwh": {"amount": 0.1, "currency": "USD"},
     "utilization": 0.5, "ownership_months": 24, "runs": 3, "storage_gb": 100, "cny_per_usd": 7.1},
    {"model": "bert-base", "currency": "USD", "offer_currency": "USD", "ownership": "rent", "objective": "time",
     "electricity_per_kwh": 0.6},
    {"model": "llama-2-7b", "batch_size": 1, "grad_accum_steps": 8, "seq_len": 4096, "precision": "bf16-amp",
     "gpu": {"id": "a100-sxm4-80gb", "count": 32, "strategy": "zero1", "tensor_parallel": 4, "pipeline_parallel": 2,
             "pipeline_interleave": 2, "sequence_parallel": True}},
]
# One scenario per combination of the keys that select code paths (model, precision, method, ...): the
# validation files repeat combinations with other sizes, which adds nothing a mutation would not find.
unique, kinds = [], set()
for s in scenarios:
    m = s.get("model")
    kind = json.dumps([m if isinstance(m, str) else m.get("family") if isinstance(m, dict) else None]
                      + [s.get(k) for k in ("precision", "method", "optimizer", "checkpointing", "attention")]
                      + [sorted(k for k in s if k not in ("model",))], sort_keys=True)
    if kind not in kinds:
        kinds.add(kind)
        unique.append(s)
print(f"scenarios: {len(scenarios)}, {len(unique)} kept")
scenario_texts = [compact(s) for s in unique]
write("fuzz_scenario", scenario_texts + ['{"model": "gpt2", "batch_size": 1e400}', "{}", "[]", "null", ""])

# --- links: "#s=1.<base64url>" -----------------------------------------------------------------------------------
def link(text):
    return "s=1." + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
frags = []
for i, t in enumerate(scenario_texts[::3]):
    frags.append(("#" if i % 2 else "") + ("embed=1&" if i % 5 == 0 else "") + link(t))
frags += ["#embed=1", "#s=2.e30", "#s=1.!!!", "#s=1." + base64.urlsafe_b64encode(b"{").decode(), "#x=1", ""]
# A scenario on the user's own card, with the card and an offer for it in the "u=" part (src/ui/link.h).
own = {"schema_version": 1,
       "gpus": [{"id": "my-card", "name": "My card", "memory_gib": 16, "memory_bandwidth_gb_per_s": 500,
                 "dense_tflops": {"fp32": 20, "fp16": 80}}],
       "offers": [{"id": "my-offer", "provider": "a friend", "gpu": "my-card", "gpu_count": 1, "price_per_hour": 2,
                   "currency": "CNY", "billing": "on-demand"}]}
own_link = link(compact({"model": "bert-base", "batch_size": 8, "gpu": {"id": "my-card"}}))
frags += ["#" + own_link + "&u" + link(compact(own))[1:], own_link + "&u=1.!!!", own_link + "&u=9.e30"]
# Issue 30: a link whose user-data part carries a bundled card with other figures, used by its scenario or not.
poisoned = {"schema_version": 1, "gpus": [dict(g4090, memory_gib=96)], "offers": []}
frags += ["#" + link(compact({"model": "bert-base", "gpu": {"id": gid}})) + "&u" + link(compact(poisoned))[1:]
          for gid in ("rtx-4090", "rtx-4060")]
write("fuzz_fragment", frags)

# --- saved state: {"version": 1, "scenario": {...}} ----------------------------------------------------------
stores = [compact({"version": 1, "scenario": s}) for s in unique[::3]]
stores += ['{"version": 2, "scenario": {}}', '{"version": 1}', "{}", "not json", ""]
# Saved user data, whole and damaged (issue 30: an array, a string, a misspelled key), and an import to undo.
bert = {"model": "bert-base", "batch_size": 8, "gpu": {"id": "my-card"}}
stores += [compact({"version": 1, "scenario": bert, "user_data": own}),
           compact({"version": 1, "scenario": bert, "user_data": own, "user_data_before_import": {}}),
           compact({"version": 1, "scenario": {"model": "gpt2", "batch_size": 4}, "user_data": [1, 2]}),
           compact({"version": 1, "scenario": {"model": "gpt2", "batch_size": 4}, "user_data": "gpus"}),
           compact({"version": 1, "scenario": {"model": "gpt2", "batch_size": 4}, "user_data": {"gpu": own["gpus"]}})]
write("fuzz_store", stores)

# --- imports: USER DATA \0 FILE ("Load from a file" over the user's data; issue 30) ----------------------------
poison = dict(g4090, memory_gib=96, street_price_cny={"new": 100, "used": None, "as_of": "2026-11-30",
                                                       "source": "entered by the user"})
files = [compact(u) for u in user] + [
    compact({"schema_version": 1, "gpus": [poison]}),
    compact({"model": "gpt2", "batch_size": 8}),                          # a scenario
    compact({"version": 1, "scenario": bert, "user_data": own}),          # the page's saved settings
    compact({"schema_version": 2, "gpus": [minimal]}),                    # newer
    compact({"name": "my-app", "version": "1.0.0"}),                      # a package.json
    compact({"schema_version": 1, "gpus": [], "offers": []}), "{}", "[]", "not json"]
write("fuzz_import", [compact(own) + "\0" + f for f in files] + ["\0" + f for f in files[:4]])

# --- training configs: CONFIG TEXT \0 OVERRIDES (one per line) \0 CONFIG.JSON (`gpuguide from-config`; issue 43) --
tc_dir = os.path.join(root, "tests", "data", "training_configs")
tc = []
for name in sorted(os.listdir(tc_dir)):
    if name.endswith((".yaml", ".yml")):
        with open(os.path.join(tc_dir, name), encoding="utf-8") as f:
            tc.append(f.read())
torchtune = [t for t in tc if "_component_" in t]
peft = compact({"peft_type": "LORA", "base_model_name_or_path": "meta-llama/Llama-3.2-1B-Instruct", "r": 16,
                "lora_alpha": 32, "lora_dropout": 0.05, "target_modules": ["q_proj", "v_proj"], "task_type": "CAUSAL_LM"})
args = compact({"model_name_or_path": "Qwen/Qwen2.5-0.5B", "output_dir": "out", "per_device_train_batch_size": 4,
                "gradient_accumulation_steps": 2, "bf16": True, "gradient_checkpointing": True, "block_size": 1024,
                "optim": "adamw_8bit"})
unknown = "base_model: someone/my-model\nadapter: lora\nlora_r: 8\nsequence_len: 512\nmicro_batch_size: 2\n"
hf = compact({"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816, "num_hidden_layers": 8,
              "num_attention_heads": 16, "num_key_value_heads": 4, "vocab_size": 32000, "max_position_embeddings": 2048})
write("fuzz_training_config", tc + [peft, args, unknown + "\0\0" + hf, "", "a: [1, {b: c}]\n", "{}"] +
      [t + "\0tokenizer.max_seq_len=4096\nenable_activation_checkpointing=False\ndataset.packed=True" for t in torchtune])

# --- command lines: ARG \n ARG ... \0 STDIN ------------------------------------------------------------------
# Valid scenarios only for `estimate` (ranking a valid one costs about a second under the sanitizers; the
# evaluation is fuzz_evaluate's): rank and advise get refused ones, which still go through their argument handling.
small = [t for t in scenario_texts if '"gpt2"' in t or '"bert-base"' in t][:4]
cli = ["estimate\n-\0" + t for t in small]
cli += ["rank\n--json\n-\0" + '{"model": "gpt2", "batch_size": 0}', "advise\n-\0" + '{"model": "gpt2", "runs": 0}',
        "rank\n-\0[]",
        "gpus", "gpus\n--json", "offers\n--json", "settings", "settings\n--json", "check-data\n--json",
        "check-data\n--dir\nrepo", "models", "models\n--json", "validate", "validate\n--markdown", "help", "help\nestimate",
        "--help", "--version", "-V", "estimate\n--help", "estimate", "estimate\nscenario.json", "rank\n-\n-\0{}", ""]
write("fuzz_cli_args", cli)

# --- dictionaries: JSON syntax + every key and enum value the parsers know (string literals of their sources) ---
def literals(paths):
    words = set()
    for path in paths:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            words |= set(re.findall(r'"([A-Za-z0-9_.\-]{1,40})"', f.read()))
    return sorted(words)

def dict_entry(token):
    return '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"\n'

def write_dict(name, words, extra=()):
    if only and name not in only:
        return
    path = os.path.join(root, "tests", "fuzz", name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# libFuzzer dictionary, written by tests/fuzz/make_corpus.py (JSON syntax + known keys and values)\n")
        for tok in ["{", "}", "[", "]", ":", ",", '"', "true", "false", "null", "0", "-1", "1e308", "1e-308", "0.5",
                    "2147483648", "-0", "\\u0000", "\\ud800", "\\u00e9"]:
            f.write(dict_entry(tok))
        for w in words:
            f.write(dict_entry('"' + w + '"'))
        for e in extra:
            f.write(e if e.startswith('"') else dict_entry(e))
    print(f"{name}: {len(words)} words")

# Training configs (YAML or JSON): the keys and values the readers know, bare (YAML) as well as quoted, and YAML's syntax.
tc_words = literals(["src/catalog/training_config.cpp", "src/catalog/training_config_axolotl.cpp",
                     "src/catalog/training_config_hf.cpp", "src/catalog/training_config_torchtune.cpp",
                     "src/catalog/yaml_text.cpp"])
write_dict("training_config.dict", tc_words, [w + ": " for w in tc_words] +
           ['"\\x0a"\n', '"\\x0a  "\n', "- ", "&a ", "*a", "!!str ", "---", "...", "|", ">", "~", "=", "_component_"])
write_dict("catalog.dict", literals(["src/catalog/catalog.cpp", "src/catalog/catalog_gpus.cpp",
                                     "src/catalog/catalog_offers.cpp", "src/catalog/catalog_settings.cpp",
                                     "src/catalog/catalog_calibrations.cpp", "src/catalog/catalog_json.cpp"]))
scenario_words = literals(["src/catalog/scenario.cpp", "src/catalog/scenario_keys.cpp",
                          "src/catalog/scenario_key_rules.cpp", "src/catalog/scenario_custom.cpp",
                          "src/catalog/decision_json.cpp", "src/engine/family.cpp", "data/models.json"])
write_dict("scenario.dict", scenario_words + [x["id"] for x in gpus["gpus"]])
# The command line: command names and flags, the separators of the input format (newline, NUL) and scenario keys.
write_dict("cli.dict", scenario_words, ["estimate", "rank", "advise", "gpus", "offers", "settings", "check-data",
                                        "models", "validate", "keys", "help", "--json", "--markdown", "--dir", "--help", "-h", "--user-data",
                                        "--version", "-V", "-", '"\\x00"\n', '"\\x0a"\n'])
