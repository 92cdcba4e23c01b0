"""``minigrad.nn``: modules, parameters and loss functions built on minigrad's tensors.

Nothing here knows about gradients: a module only computes its forward pass with ordinary
minigrad operations, and autograd records the graph as for any other code.
"""

from minigrad import _left_out
from minigrad.nn import functional, init, parameter, utils
from minigrad.nn.modules import (
    ELU,
    GELU,
    BCELoss,
    BCEWithLogitsLoss,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    CosineEmbeddingLoss,
    CosineSimilarity,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    Identity,
    KLDivLoss,
    L1Loss,
    LayerNorm,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    MarginRankingLoss,
    Module,
    ModuleDict,
    ModuleList,
    MSELoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PairwiseDistance,
    ParameterDict,
    ParameterList,
    PoissonNLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    SiLU,
    SmoothL1Loss,
    SoftMarginLoss,
    Softmax,
    Softplus,
    Tanh,
    TripletMarginLoss,
    Unflatten,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from minigrad.nn.parameter import Parameter

# isort: split
# the activations group's block
from minigrad.nn.modules import (
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
from minigrad.nn.modules import (
    AlphaDropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
    RMSNorm,
    Softmax2d,
)

__all__ = ["functional", "init", "parameter", "utils", "Parameter", "Module", "Linear",
           "Sequential",
           "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "MSELoss", "CrossEntropyLoss",
           "BCEWithLogitsLoss", "BCELoss", "L1Loss", "NLLLoss", "LayerNorm", "HuberLoss",
           "SmoothL1Loss",
           "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU", "Dropout", "Flatten", "Unflatten",
           "Identity", "Embedding", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
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


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
