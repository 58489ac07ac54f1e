// Layer graph of the BiLSTM-CRF sequence tagger (Lample et al. 2016) as PyTorch and pytorch-crf run it.
#include "engine/workload_detail.h"

namespace gg::engine::workload_detail {

// ---- BiLSTM-CRF --------------------------------------------------------------------------------------------
// The word-level tagger of Lample et al. 2016 (arXiv 1603.01360, sec. 2) as it is written in PyTorch:
// nn.Embedding -> nn.Dropout -> nn.LSTM(bidirectional=True, batch_first=True) -> nn.Linear(2h, tags) -> the
// negative log-likelihood of pytorch-crf 0.7's CRF (kmkurn/pytorch-crf torchcrf/__init__.py). On CUDA nn.LSTM is one
// cuDNN call (aten/src/ATen/native/cudnn/RNN.cpp _cudnn_rnn); docs/memory-model.md "BiLSTM-CRF" lists what is
// assumed where cuDNN is opaque.
void build_bilstm_crf(Builder& B, const ModelSpec& m, int seq) {
    assert(m.vocab > 0 && m.embed_dim > 0 && m.lstm_hidden > 0 && m.tags > 0 &&
           "build_bilstm_crf: set vocab, embed_dim, lstm_hidden and tags on the ModelSpec (see data/models.json)");
    const int e = m.embed_dim, h = m.lstm_hidden, k = m.tags;
    const int dirs = 2;                 // bidirectional
    const double T = B.b * seq;         // tokens per micro-batch
    const std::int32_t ids = B.tensor(T, R::kInt64);
    std::int32_t x = embedding(B, "embedding", T, m.vocab, e, ids);
    // Lample et al. sec. 4.3: dropout (0.5) on the embeddings just before the BiLSTM.
    x = B.dropout("dropout", x, T * e, m.dropout, R::kAutocastFp32);

    B.begin_block(0, x);  // torch.utils.checkpoint around the LSTM keeps its input
    const std::int32_t out = B.tensor(T * dirs * h, R::kActivation);  // (b, s, 2h): both directions' h_t
    {
        Layer& l = B.layer("lstm", OpKind::kMatmul);
        // torch.nn.LSTM parameters (docs: weight_ih_l0 (4h, in), weight_hh_l0 (4h, h), bias_ih_l0 and bias_hh_l0
        // (4h) each, the same again for *_reverse): per direction 4h(in + h) + 8h.
        const double per_dir = 4.0 * h * (e + h) + 8.0 * h;
        l.params = dirs * per_dir;
        l.param_matrices = 2 * dirs, l.param_vectors = 2 * dirs;
        // Under autocast, _cudnn_rnn_cast_reflatten (aten/src/ATen/autocast/AutocastRNN.cpp) copies all of them,
        // biases included, into one fp16 flat buffer, which _cudnn_rnn keeps for backward as weight_buf.
        l.matmul_weight_params = dirs * per_dir;
        l.tokens = T;
        l.role = ParamRole::kOther;
        B.note_param_tensor(4.0 * h * std::max(e, h));
        // Forward FLOPs, 2 per multiply-add: per token and direction the gate pre-activations W_ih x_t + W_hh h_(t-1)
        // are 4h x (in + h) multiply-adds (the gate nonlinearities are not counted).
        l.forward_flop = dirs * 2.0 * 4.0 * h * (double(e) + h) * T;
        // _cudnn_rnn_backward's arguments (tools/autograd/derivatives.yaml): input, hx, cx, weight_buf, output
        // (result0) and the reserve space (result3). One derivative formula covers input, hx, cx and weights,
        // so all are saved as soon as any of them needs a gradient (kAny).
        //  - input: cast to fp16 under autocast (cached_cast(kHalf, input) in AutocastRNN.cpp: also under bf16
        //    autocast, 2 bytes either way), else the dropout output itself;
        B.save(l, B.tensor(T * e, R::kMatmulInput, x), F::kAny);
        //  - hx, cx: nn.LSTM passes zeros(layers x dirs, b, h) for each (torch/nn/modules/rnn.py LSTM.forward);
        B.save(l, B.tensor(2.0 * dirs * B.b * h, R::kActivation), F::kAny);
        //  - reserve: cudnnGetRNNTrainingReserveSize returns an opaque byte count (no formula is documented). It
        //    is modelled as what the LSTM backward needs per time step and direction: the four gate activations
        //    (i, f, g, o) and the cell state c_t, 5h values in the RNN's dtype. This is exactly what PyTorch's
        //    own CUDA fallback keeps (aten/src/ATen/native/cuda/RNN.cu, _thnn_fused_lstm_cell: workspace
        //    (b, 4h) gates + cy (b, h) per step). Not measured on a GPU: see docs/memory-model.md.
        B.save(l, B.tensor(dirs * 5.0 * T * h, R::kActivation), F::kAny);
        //  - output (result0).
        B.save(l, out, F::kAny);
        l.bytes_moved_elements = T * (double(e) + dirs * h) + dirs * 5.0 * T * h;
    }
    B.block = -1;
    // hidden2tag. With batch_first the LSTM output is a transposed view (RNN.cpp: output.transpose_(0, 1)); the
    // 3-D non-contiguous input sends F.linear to matmul, which folds it into a 2-D mm when the weight requires
    // grad, copying it (aten/src/ATen/native/LinearAlgebra.cpp should_fold: "we do incur an extra copy"): mm
    // saves that new (b*s, 2h) copy, not the LSTM output (source -1: a new storage).
    B.linear("hidden2tag", -1, T, dirs * h, k, true, ParamRole::kHead, false);
    {
        // pytorch-crf 0.7 CRF: transitions (k, k), start_transitions (k), end_transitions (k).
        Layer& c = B.layer("crf", OpKind::kReduction);
        c.params = double(k) * k + 2.0 * k;
        c.param_matrices = 1, c.param_vectors = 2;
        c.role = ParamRole::kHead;
        c.backbone = false;
        B.note_param_tensor(double(k) * k);
        // _compute_normalizer, for each step i = 1 .. s-1: next_score = score[:, :, None] + transitions +
        // emissions[i][:, None, :] is (b, k, k); torch.logsumexp(next_score, 1) saves its input and its (b, k)
        // result (derivatives.yaml logsumexp_backward(grad, self, result, dim, keepdim)). fp32 under autocast
        // (bf16/fp16 emissions + fp32 transitions promote to fp32; logsumexp is on autocast's fp32 list),
        // 2 bytes under pure bf16: kAutocastFp32.
        const double steps = std::max(0, seq - 1);
        B.save(c, B.tensor(steps * B.b * (double(k) * k + k), R::kAutocastFp32), F::kAny);
        // torch.where(mask[i], next_score, score) saves the condition: views of the (b, s) bool mask.
        B.save(c, B.tensor(T, R::kBool), F::kAny);
        // _compute_score: the index ops keep their indices (the (b, s) int64 tags, and a new torch.arange(b)
        // per step) and the muls by mask[i] keep views of mask.float() (b, s) fp32.
        B.save(c, B.tensor(T, R::kInt64), F::kAny);
        B.save(c, B.tensor(T, R::kInt64), F::kAny);
        B.save(c, B.tensor(T, R::kFp32), F::kAny);
        // Bandwidth: per step two broadcast adds write (b, k, k), logsumexp reads it back and writes (b, k).
        c.bytes_moved_elements = steps * B.b * (4.0 * k * k + 3.0 * k) + 2.0 * T * k;
    }
    // No softmax over a vocabulary: the CRF's loss temporaries are the (b, k, k) step tensors above.
    B.head_loss(0);
}

}  // namespace gg::engine::workload_detail
