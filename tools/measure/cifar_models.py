# The CNNs students train on CIFAR, built as the repositories they copy build them (issue 42), for params.py and
# saved_activations.py:
# - ResNet for 32x32 images (github.com/kuangliu/pytorch-cifar models/resnet.py, BasicBlock / Bottleneck): a 3x3
#   stride-1 stem of 64 channels with BatchNorm and ReLU and no max-pool, torchvision's four stages, a 4x4 average
#   pool and a Linear head. ResNet-18 with 10 classes has 11,173,962 parameters.
# - Wide-ResNet-d-k (Zagoruyko & Komodakis 2016, arXiv:1605.07146, Table 1; the PyTorch port
#   github.com/xternalz/WideResNet-pytorch wideresnet.py): pre-activation basic blocks (BN, ReLU in place, conv3x3)
#   x 2, dropout between the two convolutions, a 1x1 shortcut convolution on the pre-activated input where the width
#   changes; a 16-channel 3x3 stem, three groups of (d - 4) / 6 blocks of 16k, 32k, 64k channels, BN, ReLU, an 8x8
#   average pool and a Linear head.
import torch.nn as nn
import torch.nn.functional as F


class _Basic(nn.Module):
    expansion = 1

    def __init__(self, cin, planes, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != planes:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        y += self.shortcut(x)
        return F.relu(y)


class _Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, cin, planes, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, 4 * planes, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(4 * planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != 4 * planes:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, 4 * planes, 1, stride, bias=False),
                                          nn.BatchNorm2d(4 * planes))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = F.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        y += self.shortcut(x)
        return F.relu(y)


class CifarResNet(nn.Module):
    def __init__(self, depths, bottleneck, classes=10):
        super().__init__()
        block = _Bottleneck if bottleneck else _Basic
        self.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        stages, cin = [], 64
        for k, n in enumerate(depths):
            planes = 64 << k
            for i in range(n):
                stages.append(block(cin, planes, 2 if (k > 0 and i == 0) else 1))
                cin = planes * block.expansion
        self.layers = nn.Sequential(*stages)
        self.linear = nn.Linear(cin, classes)

    def forward(self, x):
        y = self.layers(F.relu(self.bn1(self.conv1(x))))
        y = F.avg_pool2d(y, y.shape[-1])  # 4x4 at 32 px, as the repository's avg_pool2d(out, 4)
        return self.linear(y.flatten(1))


class _WideBlock(nn.Module):
    def __init__(self, cin, cout, stride, dropout):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.dropout = dropout
        self.same = cin == cout
        self.shortcut = None if self.same else nn.Conv2d(cin, cout, 1, stride, 0, bias=False)

    def forward(self, x):
        a = F.relu(self.bn1(x), inplace=True)
        y = self.conv1(a)
        if self.dropout > 0:
            y = F.dropout(y, p=self.dropout, training=self.training)
        y = self.conv2(F.relu(self.bn2(y), inplace=True))
        return (x if self.same else self.shortcut(a)) + y


class WideResNet(nn.Module):
    def __init__(self, depth, widen, classes=10, dropout=0.0):
        super().__init__()
        assert (depth - 4) % 6 == 0, "Wide-ResNet depth is 6n + 4"
        n = (depth - 4) // 6
        widths = [16, 16 * widen, 32 * widen, 64 * widen]
        self.conv1 = nn.Conv2d(3, widths[0], 3, 1, 1, bias=False)
        blocks = []
        for g in range(3):
            for i in range(n):
                blocks.append(_WideBlock(widths[g] if i == 0 else widths[g + 1], widths[g + 1],
                                         (1 if g == 0 else 2) if i == 0 else 1, dropout))
        self.blocks = nn.Sequential(*blocks)
        self.bn = nn.BatchNorm2d(widths[3])
        self.fc = nn.Linear(widths[3], classes)

    def forward(self, x):
        y = F.relu(self.bn(self.blocks(self.conv1(x))), inplace=True)
        y = F.avg_pool2d(y, y.shape[-1])  # 8x8 at 32 px, as the repository's avg_pool2d(out, 8)
        return self.fc(y.flatten(1))


# preset id -> constructor (CIFAR-10 heads)
PRESETS = {
    "resnet18-cifar": lambda: CifarResNet([2, 2, 2, 2], False),
    "resnet34-cifar": lambda: CifarResNet([3, 4, 6, 3], False),
    "resnet50-cifar": lambda: CifarResNet([3, 4, 6, 3], True),
    "wrn-28-10": lambda: WideResNet(28, 10),
}
