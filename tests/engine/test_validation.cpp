// The validation driver: every memory case of every tests/validation/*.json file (read through the embedded
// copies, as the page's Validation tab does) runs through the engine; a table is printed. A miss fails unless the
// case is in known_misses() with its reason (a miss is a finding to explain, never a constant to tune); a listed
// case that passes, or a listed id that no longer exists, fails too, so the list stays true. "informative_only"
// cases (rules of thumb, not measurements) are printed and never judged. A file with memory cases none of which
// can run, or a case whose scenario does not parse, fails hard.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "catalog/embedded_data.h"
#include "catalog/report.h"

using namespace gg::catalog;

namespace {

constexpr const char* kCeshineWrnMemory =
    "WRN-28-10 on Colab's T4 and Kaggle's P100, nvidia-smi after training: -37..-62% (T4 FP32 7657 MiB, AMP O1 4433; "
    "P100 FP32 5677, O1 6283; the engine 3559 and 2372). The same code and tensors read 2 GiB apart by card (K80 FP32: "
    "6786), and O1 reads more than FP32 on the P100: what the card holds beyond the tensors follows the cuDNN algorithms "
    "torch 1.1's heuristic picked per card (cudnn.benchmark off; their workspaces are not bounded there) and the "
    "caching allocator's blocks after ten train/evaluate cycles. The engine's cudnn_workspace_bytes defaults to 0 and "
    "is not fitted to these; no per-algorithm workspace figure for that stack was found";

// Memory cases the engine misses today, each with its reason (docs/validation.md "Known misses").
const std::map<std::string, const char*>& known_misses() {
    static const std::map<std::string, const char*> m = {
        {"korthikanti-22b-activations-full",
         "+23%: full recomputation keeps 2sbh bytes per layer in the paper (Sec. 5), which leaves out the "
         "embedding, final LayerNorm and output layer (Sec. 4.3); the engine keeps them: the excess of the 22B and "
         "175B cases solves to 2 bytes x s x v (16-bit logits, v = 51200: 210 MB) + about 5sbh bytes, fixed per "
         "model, so it weighs most on the shallowest model (175B +6.9%, 530B +4.8%, 1T +3.5%)"},
        {"korthikanti-175b-activations-full",
         "as korthikanti-22b-activations-full: embedding, final norm and logits the paper's 2sbhL omits (+6.9%)"},
        {"unsloth-llama31-8b-qlora-max-context-24gb",
         "+10.4% (86.7k of 78.5k tokens; -20.7% before Unsloth's fused block kernels were modelled): Unsloth's "
         "Fast_RMS_Layernorm, LoRA_MLP and in-place RoPE keep 4 x (h + ffn + head_dim) bytes less per token and block "
         "than transformers' eager block (TensorInfo::kept_by). Still not modelled: the 24 GB class taken as the RTX "
         "4090's 24 GiB, and LoRA_MLP's backward buffers beyond the engine's 2 x largest tensor"},
        {"unsloth-table-hf-fa2-llama31-8b-qlora-max-context-24gb",
         "+21.3% (7.0k against 5.8k tokens; +58.7% before fp32_modules): with peft's prepare_model_for_kbit_training "
         "the hidden states are fp32 (fp32_modules 'all', the Hugging Face stack's default). The rest: the table's slope "
         "is about 20 bytes per logit; transformers' shift_logits .contiguous() copy and the slice's backward (a "
         "zero-filled fp32 tensor of the whole logits) are not modelled, nor the FlashAttention-2 path's 16-bit casts "
         "of fp32 q, k, v"},
        // Issue 42: ceshine/apex_pytorch_cifar_experiment's Wide-ResNet-28-10 (torch 1.1.0, June 2019). One reason:
        {"ceshine-wrn-28-10-fp32-t4-colab-nvidia-smi", kCeshineWrnMemory},
        {"ceshine-wrn-28-10-amp-o1-t4-colab-nvidia-smi", kCeshineWrnMemory},
        {"ceshine-wrn-28-10-fp32-p100-kaggle-nvidia-smi", kCeshineWrnMemory},
        {"ceshine-wrn-28-10-amp-o1-p100-kaggle-nvidia-smi", kCeshineWrnMemory},
        {"qlora-guanaco-65b-fits-one-48gb-gpu",
         "+7.7% over the 48 GiB bound: qlora.py --bf16 casts the LoRA adapters to bf16; the scenario format has no "
         "adapter dtype, so the engine counts fp32 adapters and gradients (the paged_adamw_32bit states are modelled: "
         "stack_options.paged_optimizer; without it +11%)"},
    };
    return m;
}

const std::vector<ValidationRow>& rows() {
    static const std::vector<ValidationRow> all = run_memory_validation();
    return all;
}

}  // namespace

TEST_CASE("every validation file with memory cases has cases the engine can run, and every scenario parses") {
    std::map<std::string, int> runnable, total;
    for (const ValidationRow& r : rows()) {
        ++total[r.file];
        if (r.ran) ++runnable[r.file];
        CAPTURE(r.file);
        CAPTURE(r.id);
        CAPTURE(r.problem);
        CHECK(r.ran);
    }
    for (const auto& [file, n] : total) {
        CAPTURE(file);
        CHECK(runnable[file] > 0);
    }
    int files = 0;
    for (const EmbeddedFile* f = embedded_files(); f->path != nullptr; ++f)
        if (std::string(f->path).rfind("tests/validation/", 0) == 0) ++files;
    MESSAGE(files << " validation files embedded, " << total.size() << " with memory cases, " << rows().size()
                  << " memory cases");
}

TEST_CASE("memory predictions are within each case's tolerance, except documented known misses") {
    std::printf("\n%-24s %-50s %-24s %14s %14s %8s %s\n", "file", "case", "quantity", "measured", "predicted", "error",
                "result");
    int pass = 0, judged = 0, known = 0, informative = 0;
    std::set<std::string> ids;
    for (const ValidationRow& r : rows()) {
        ids.insert(r.id);
        if (!r.ran) continue;
        const bool info = r.bound == "informative";
        const bool listed = known_misses().count(r.id) > 0;
        const char* result = info ? "info" : r.pass ? "pass" : listed ? "KNOWN" : "MISS";
        const auto slash = r.file.rfind('/');
        std::printf("%-24s %-50s %-24s %14.6g %14.6g %+7.1f%% %s\n", r.file.substr(slash + 1).c_str(), r.id.c_str(),
                    r.quantity.c_str(), r.measured, r.predicted, 100 * r.error_fraction, result);
        CAPTURE(r.file);
        CAPTURE(r.id);
        CAPTURE(r.quantity);
        CAPTURE(r.measured);
        CAPTURE(r.predicted);
        CAPTURE(r.bound);
        if (info) {
            ++informative;
            if (listed) FAIL_CHECK("an informative_only case is never judged: remove it from known_misses()");
            continue;
        }
        ++judged;
        pass += r.pass;
        known += !r.pass && listed;
        if (!r.pass && !listed)
            FAIL_CHECK("new miss: fix the engine or the case's scenario (with its source), or add the case to "
                       "known_misses() with its reason");
        if (r.pass && listed) FAIL_CHECK("known miss now passes: remove it from known_misses()");
    }
    for (const auto& [id, reason] : known_misses()) {
        CAPTURE(id);
        CAPTURE(reason);
        if (!ids.count(id)) FAIL_CHECK("known_misses() lists a case id that no validation file has: remove it");
    }
    std::printf("%d of %d judged memory cases within tolerance, %d known misses, %d informative (not judged)\n", pass,
                judged, known, informative);
}

TEST_CASE("parameter counts of the measured presets are within 0.5%, parameter-tensor counts exact") {
    for (const ValidationRow& r : rows()) {
        if (!r.ran) continue;
        CAPTURE(r.id);
        if (r.quantity == "params_total" || r.quantity == "params_trainable") CHECK(std::fabs(r.error_fraction) <= 0.005);
        if (r.quantity == "param_tensors" || r.quantity == "param_matrices") CHECK(r.predicted == r.measured);
    }
}
