// The memory a job can have on a card (card_memory.h): nvidia-smi's total, and ECC's share of the DRAM.
// Must not include JSON, UI or platform headers.
#include "engine/card_memory.h"

namespace gg::engine {

bool ecc_in_band(const GpuSpec& gpu) {
    // NVIDIA GDDR cards with ECC store the check bits in the same DRAM as the data ("Reported total memory is
    // affected by ECC state. If ECC is enabled the total available memory is decreased by several percent, due to
    // the requisite parity bits": nvidia-smi --help-query-gpu, memory.total, quoted in netdata/netdata issue #15755).
    // HBM stacks carry them beside the data: A100-SXM4-40GB shows 40960 MiB = 40 GiB with ECC on (ECC column "0",
    // driver 580.126.09, bottlerocket-os/bottlerocket-core-kit PR #834), A100 80GB 81920 MiB (modal-labs/modal-client
    // PR #2797). AMD cards are left out: no reading of theirs was found.
    return gpu.ecc && gpu.vendor == "nvidia" && gpu.memory_type.rfind("GDDR", 0) == 0;
}

double ecc_reserved_bytes(const GpuSpec& gpu) {
    // 1/16 of the DRAM: every published ECC-on total of a GDDR card is its datasheet size x 15/16, less the few MiB
    // the driver keeps on cards of the same chip with ECC off or without ECC:
    //   T4 (TU104, 16 GiB):  15360 MiB = 16384 x 15/16        (modal-labs/modal-client PR #2797; MagicQuill #57)
    //   L40S (AD102, 48 GiB): 46068 MiB = 49152 x 15/16 - 12  (PR #2797); the RTX 4090 (AD102, no ECC) shows
    //                         24564 MiB = 24576 - 12          (RLinf/RLinf issue #255)
    //   L4 (AD104, 24 GiB):  23034 MiB = 24576 x 15/16 - 6    (PR #2797; NVIDIA/TensorRT-LLM issue #2398)
    //   A10, A10G (GA102, 24 GiB): 23028 MiB = 24576 x 15/16 - 12 (PR #2797; NVIDIA/DCGM issue #232)
    return ecc_in_band(gpu) ? gpu.memory_bytes / 16.0 : 0.0;
}

bool ecc_on(const GpuSpec& gpu, EccSetting setting) {
    if (!gpu.ecc) return false;  // a card without ECC memory cannot turn it on
    switch (setting) {
        case EccSetting::kOn: return true;
        case EccSetting::kOff: return false;
        case EccSetting::kDefault: break;
    }
    return gpu.ecc_on_by_default;
}

double usable_memory_bytes(const GpuSpec& gpu, EccSetting setting) {
    const double ecc_bytes = ecc_reserved_bytes(gpu);
    const bool on = ecc_on(gpu, setting);
    if (gpu.visible_memory_bytes > 0) {
        // The published total, moved by ECC's share when this run's ECC state is not the reading's.
        if (on == gpu.visible_memory_ecc_on) return gpu.visible_memory_bytes;
        return on ? gpu.visible_memory_bytes - ecc_bytes : gpu.visible_memory_bytes + ecc_bytes;
    }
    // No reading: the datasheet size, less ECC's share when on (the driver's few MiB are not known).
    return on ? gpu.memory_bytes - ecc_bytes : gpu.memory_bytes;
}

}  // namespace gg::engine
