"""The layer classes of ``minigrad.nn``, one idea per file."""

from minigrad.nn.modules.activation import (
    ELU,
    GELU,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from minigrad.nn.modules.container import (
    ModuleDict,
    ModuleList,
    ParameterDict,
    ParameterList,
    Sequential,
)
from minigrad.nn.modules.distance import CosineSimilarity, PairwiseDistance
from minigrad.nn.modules.dropout import Dropout
from minigrad.nn.modules.flatten import Flatten, Unflatten
from minigrad.nn.modules.linear import Identity, Linear
from minigrad.nn.modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
)
from minigrad.nn.modules.module import Module
from minigrad.nn.modules.normalization import LayerNorm
from minigrad.nn.modules.padding import (
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from minigrad.nn.modules.sparse import Embedding

# isort: split
# the activations group's block
from minigrad.nn.modules.activation import (
    CELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    Mish,
    PReLU,
    ReLU6,
    Softmin,
    Softshrink,
    Softsign,
    Tanhshrink,
    Threshold,
)

# isort: split
# the dropout group's block
from minigrad.nn.modules.activation import Softmax2d
from minigrad.nn.modules.dropout import (
    AlphaDropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)
from minigrad.nn.modules.normalization import RMSNorm

__all__ = ["Module", "Linear", "Sequential", "ModuleList", "ModuleDict", "ParameterList",
           "ParameterDict", "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
           "MSELoss", "CrossEntropyLoss",
           "BCEWithLogitsLoss", "BCELoss", "L1Loss", "NLLLoss", "LayerNorm", "HuberLoss",
           "SmoothL1Loss",
           "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU", "Dropout", "Flatten", "Unflatten",
           "Identity", "Embedding",
           # statistics_losses
           "CosineSimilarity", "PairwiseDistance",
           "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
           "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss",
           "SoftMarginLoss", "MultiLabelSoftMarginLoss", "LogSigmoid",
           "MultiMarginLoss", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]
__all__ += ["Hardtanh", "ReLU6", "SELU", "CELU",
            "Mish", "Hardsigmoid", "Hardswish",
            "Softsign", "Tanhshrink", "Softmin",
            "Threshold", "Softshrink", "Hardshrink", "GLU", "PReLU"]  # activations group
__all__ += ["Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
            "Softmax2d", "RMSNorm"]  # dropout group
