// torch.nn.DataParallel ("strategy": "dp"): what one process driving every card stores on GPU 0 and on the others,
// what it sends over the interconnect each step, and what DistributedDataParallel would save. Pure C++: no JSON, no UI.
// The mechanism is read from PyTorch's torch/nn/parallel/{data_parallel,replicate,scatter_gather,comm}.py.
#pragma once

#include "engine/memory.h"
#include "engine/workload.h"

namespace gg::engine {

// ---- what crosses the interconnect, per micro-batch ---------------------------------------------------------
// DataParallel.forward, every call (data_parallel.py): scatter(inputs) from GPU 0; replicate(module) = Broadcast of
// every parameter and buffer from GPU 0 (comm.broadcast_coalesced, NCCL broadcast in 10 MiB chunks); parallel_apply
// (one Python thread per replica); gather(outputs) onto GPU 0. Backward: the gradient of the gathered outputs is
// scattered back (Gather.backward), and the replicas' parameter gradients are summed onto GPU 0 by Broadcast's
// backward, ReduceAddCoalesced (comm.reduce_add_coalesced, NCCL reduce), once every replica has finished its backward,
// so nothing of it overlaps compute.
struct DpTraffic {
    double broadcast_bytes = 0;             // parameters (all of them, frozen ones too: replicate() broadcasts every
                                            // parameter) in their stored dtype, per micro-batch
    double reduce_bytes = 0;                // trainable gradients summed onto GPU 0, per micro-batch
    double output_bytes_per_sample = 0;     // the model's output (logits) in its dtype
    double input_bytes_per_sample = 0;      // the batch the loader hands to GPU 0 (images fp32 or token ids int64)
    bool output_gradient_scattered = true;  // the loss is computed on GPU 0 from the gathered outputs (false: the
                                            // model computes its loss inside forward, Hugging Face models given labels)
};

// The input one sample carries into forward: the first convolution's input (fp32 images, c x w x w x 4 B), else the
// token ids and labels (2 x seq x 8 B, int64), else 0. Read from the per-sample graph.
double dp_input_bytes_per_sample(const Graph& graph_per_sample);
// The output one sample's forward returns: the logits (b x s x vocab or b x classes) in the activation dtype.
double dp_output_bytes_per_sample(const Graph& graph_per_sample, Precision precision);
// Hugging Face model families compute the loss inside forward when the Trainer passes labels (GPT2LMHeadModel,
// BertForSequenceClassification ...), so each replica returns its loss and the gathered logits get no gradient.
bool dp_loss_in_replicas(Family family);

// ---- time, per optimizer step --------------------------------------------------------------------------------
struct DpStepTimes {
    double broadcast_s = 0;   // replicate(): the weights from GPU 0 to the others, every micro-batch
    double reduce_s = 0;      // the gradients summed onto GPU 0, every micro-batch
    double scatter_gather_s = 0;  // inputs out, outputs in, output gradients out (peer copies through GPU 0's link)
    double launch_wait_s = 0; // the single Python thread's extra: n replicas' kernel launches share one GIL
    double comm_s() const { return broadcast_s + reduce_s + scatter_gather_s; }
};

// n replicas, micro-batch `batch` per replica, `accum` micro-batches per step, a link of `bus_bytes_per_s` (the
// interconnect's achievable per-direction bandwidth) and `latency_s` per transfer. `device_micro_s` is one
// micro-batch's GPU time with one replica's host overhead in it (time_step.cpp's micro-batch time), `host_micro_s` that
// host overhead: with one thread issuing every replica's kernels the host needs n x host_micro_s per micro-batch, which
// sets the pace when it exceeds the device's time.
DpStepTimes dp_step_times(const DpTraffic& traffic, int n, double batch, int accum, double bus_bytes_per_s,
                          double latency_s, double device_micro_s, double host_micro_s);

// ---- memory: GPU 0 and the others ----------------------------------------------------------------------------------
// GPU 0 holds the module (weights), the optimizer states and the summed gradients (.grad), replica 0's gradients
// while the reduction runs, its own micro-batch's activations, and besides them the whole input batch and the outputs
// gathered from every replica (alive from forward to the next step in `output = model(x); loss = crit(output, y)`).
// The other GPUs hold only the broadcast weights, their gradients (until the reduction) and their activations: no
// optimizer states, no step.
struct DpMemory {
    double gpu0_allocated_bytes = 0, gpu0_nvidia_smi_bytes = 0;
    double other_allocated_bytes = 0, other_nvidia_smi_bytes = 0;  // each of GPU 1..n-1
    double gathered_output_bytes = 0;  // n x batch x output bytes, on GPU 0
    double scattered_input_bytes = 0;  // n x batch x input bytes, on GPU 0
    double optimizer_bytes = 0;        // on GPU 0 only
};
// `dp` must be prepared with Strategy::kDp (its peak is GPU 0's); the others' bytes come from its memory timeline less
// what only GPU 0 holds.
DpMemory dp_memory(const PreparedMemory& dp, double batch);

// ---- what DistributedDataParallel would save ----------------------------------------------------------------------
// The same job under DDP: every GPU holds the whole model state (weights, gradients, buckets, optimizer states) and its
// own micro-batch; the all-reduce overlaps backward and each process launches its own kernels. Savings are positive
// when DDP needs less (GPU 0's bytes, the step's seconds).
struct DpVersusDdp {
    DpMemory dp;
    double ddp_nvidia_smi_bytes = 0;  // each GPU under DDP
    double dp_step_s = 0, ddp_step_s = 0;
    double gpu0_saving_bytes() const { return dp.gpu0_nvidia_smi_bytes - ddp_nvidia_smi_bytes; }
    double step_saving_s() const { return dp_step_s - ddp_step_s; }
    double slowdown_ratio() const { return ddp_step_s > 0 ? dp_step_s / ddp_step_s : 0.0; }  // DP step / DDP step
};
// `dp` and `ddp`: the same job prepared with Strategy::kDp and kDdp; the step times from evaluate_time of each.
DpVersusDdp dp_versus_ddp(const PreparedMemory& dp, const PreparedMemory& ddp, double batch, double dp_step_s,
                          double ddp_step_s);

}  // namespace gg::engine
