// The time model's communication: ring collectives (time.h ring_allreduce_s, ring_gather_s) and the link a ring of
// GPUs runs over (the card's interconnect, peer-to-peer or host-staged, the network between nodes). No JSON, no UI.
#include <algorithm>
#include <cassert>

#include "engine/time_detail.h"

namespace gg::engine {

// ---- communication -----------------------------------------------------------------------------------------
double ring_allreduce_s(double bytes, int n, double bus, double latency) {
    if (n <= 1 || bytes <= 0) return 0;
    assert(bus > 0 && "ring_allreduce_s: bus bandwidth must be > 0 (check data/interconnects.json)");
    return 2.0 * (n - 1) / n * bytes / bus + 2.0 * (n - 1) * latency;
}

double ring_gather_s(double bytes, int n, double bus, double latency) {
    if (n <= 1 || bytes <= 0) return 0;
    assert(bus > 0 && "ring_gather_s: bus bandwidth must be > 0 (check data/interconnects.json)");
    return double(n - 1) / n * bytes / bus + double(n - 1) * latency;
}


namespace time_detail {

Bus link_bandwidth(const InterconnectSpec& e, const GpuSpec& gpu) {
    const double nominal = e.per_gpu_link ? gpu.nvlink_bytes_per_s / 2.0 : e.nominal_bytes_per_s;
    const double low = e.fraction_low > 0 ? e.fraction_low : e.achievable_fraction;  // 0: no range given
    const double high = e.fraction_high > 0 ? e.fraction_high : e.achievable_fraction;
    return {nominal * low, nominal * e.achievable_fraction, nominal * high};
}

// The bottleneck link of the ring: the given interconnect; an inter-node network is combined with the card's
// own intra-node link (a ring crosses both; its bus bandwidth is the slower one). A job wider than a node with
// an intra-node interconnect uses the default inter-node network (InfiniBand).
Links resolve_link(const GpuSpec& gpu, const TimeOptions& o, const ThroughputPriors& priors, int n) {
    Links out;
    const InterconnectTable& table = priors.interconnects;
    // GeForce RTX cards have no PCIe peer-to-peer under NVIDIA's driver; their collectives are staged through host
    // memory. RTX 30 and 40 series: 8x RTX 3090 on PCIe "CANNOT Access Peer" in p2pBandwidthLatencyTest
    // (NVIDIA/nccl#1127); "3090 does not support peer access. Only workstation cards (e.g. Ada 6000) or V100, A100,
    // H100 have this feature" (efeslab/Nanoflow#22); huggingface/accelerate#2328 sets NCCL_P2P_DISABLE for the 40
    // series; patched kernel modules turn it on (tinygrad/open-gpu-kernel-modules for the 4090 and 5090, aikitoria's
    // for the 3090). RTX 20 series (compute capability 7.5): no vendor statement found; Lambda's older table
    // (validation-sources sec. 7o) settles it as measured: its 2x/4x/8x RTX 2080 Ti rows fit host-staged (2 of 12
    // over 10 points of efficiency) and not peer-to-peer (6 of 12), as its RTX 3070 / 3080 rows do, while the
    // professional cards' boxes (RTX A4000/A5000/A6000, A40, Quadro RTX 8000, V100) fit peer-to-peer. An NVLink bridge
    // (RTX 2080 Ti, 3090) keeps peer-to-peer over the bridge (the scenario's interconnect).
    const bool bridged = o.interconnect_set && o.interconnect == Interconnect::kNvlinkBridge && gpu.nvlink_bytes_per_s > 0;
    // pcie_p2p: whether the card can use PCIe peer-to-peer at all; p2p: whether the ring's own link runs peer to
    // peer (a bridge does on GeForce cards too).
    // peer_to_peer can turn it off (NCCL_P2P_DISABLE=1), never on where the driver has none: a ranking applies one
    // scenario's setting to every card, and the scenario parser refuses it for the card it names.
    const bool pcie_p2p = pcie_peer_to_peer_capable(gpu) && (!o.peer_to_peer_set || o.peer_to_peer);
    const bool p2p = o.peer_to_peer_set && !o.peer_to_peer ? false : pcie_p2p || bridged;
    Interconnect kind = o.interconnect_set ? o.interconnect : default_interconnect(gpu);
    // Without peer-to-peer (NCCL_P2P_DISABLE=1) NVLink is unused too: "disables the peer to peer (P2P) transport,
    // which uses CUDA direct access between GPUs, using NVLink or PCI" (NCCL docs, Environment Variables); the
    // ring falls back to shared memory through the host over the card's PCIe bus.
    if (!p2p && (kind == Interconnect::kNvlink || kind == Interconnect::kNvlinkBridge))
        kind = gpu.pcie_gen >= 5 ? Interconnect::kPcie5 : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
    // The network between nodes: the scenario's row, else the default row of its kind (InfiniBand when the
    // interconnect names none: a job wider than a node).
    const InterconnectSpec* chosen_network = nullptr;
    if (!o.network_id.empty())
        if (const InterconnectSpec* e = table.find_id(o.network_id); e && e->inter_node) chosen_network = e;
    auto network_for = [&](Interconnect k) -> const InterconnectSpec* {
        return chosen_network ? chosen_network : table.find(k);
    };
    auto spec_for = [&](Interconnect k) -> const InterconnectSpec* {
        if ((k == Interconnect::kNvlink || k == Interconnect::kNvlinkBridge) && gpu.nvlink_bytes_per_s <= 0)
            return nullptr;  // no NVLink on this card
        if (k == Interconnect::kInfiniband || k == Interconnect::kEthernet) return network_for(k);
        return table.find(k, p2p);
    };
    const InterconnectSpec* main = spec_for(kind);
    if (!main) {  // e.g. "nvlink" asked for a card without NVLink: its PCIe bus
        kind = gpu.pcie_gen >= 5 ? Interconnect::kPcie5 : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
        main = spec_for(kind);
    }
    if (!main) return out;
    Bus bus = link_bandwidth(*main, gpu);
    double lat = main->latency_s;
    std::string id = main->id;
    const bool wider_than_node = n > priors.comm.gpus_per_node;
    if (kind == Interconnect::kNvlinkBridge && n > 2) {
        // A bridge joins two cards; a ring over more of them also crosses PCIe between the pairs.
        const Interconnect pcie = gpu.pcie_gen >= 5 ? Interconnect::kPcie5
                                  : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
        // Between the pairs the card's own PCIe rule holds: host-staged on GeForce.
        if (const InterconnectSpec* bus_spec = table.find(pcie, pcie_p2p)) {
            bus.keep_slower(link_bandwidth(*bus_spec, gpu));
            id += "+" + bus_spec->id;
        }
    }
    if (main->inter_node) {
        const InterconnectSpec* intra = spec_for(default_interconnect(gpu));
        if (intra) bus.keep_slower(link_bandwidth(*intra, gpu));
    } else if (wider_than_node) {
        const InterconnectSpec* inter = network_for(Interconnect::kInfiniband);
        if (inter) {
            bus.keep_slower(link_bandwidth(*inter, gpu));
            lat = std::max(lat, inter->latency_s);
            id += "+" + inter->id;
        }
    }
    const bool crosses = main->inter_node || (wider_than_node && network_for(Interconnect::kInfiniband));
    out.mid = {bus.mid, lat, id, crosses};
    out.slow = {bus.low, lat, id, crosses};
    out.fast = {bus.high, lat, id, crosses};
    return out;
}

// The inter-node figures in data/interconnects.json are per node (a DGX A100 has one 200 Gb/s HDR NIC per GPU: 8 x
// 25 GB/s), what a collective gets when all the node's GPUs take part in it. Groups that hold only `per_node` of a
// node's GPUs run side by side with the node's other groups, each over its own GPUs' NICs (NCCL picks the NIC
// nearest each GPU): a share of per_node / gpus_per_node of the node's bandwidth.
void share_node_network(Links& links, double per_node, double gpus_per_node) {
    if (!links.mid.crosses_nodes || per_node >= gpus_per_node || gpus_per_node <= 0) return;
    const double share = per_node / gpus_per_node;
    for (Link* l : {&links.mid, &links.slow, &links.fast}) l->bus_bytes_per_s *= share;
}

}  // namespace time_detail

}  // namespace gg::engine
