//! The policy/value network written as an ONNX model (opset 13), layer for layer as `zero-model` builds it in
//! tch: a 3x3 convolution stem with batch norm, residual blocks (two 3x3 convolutions with batch norm, an
//! optional squeeze-excitation gate), and the policy, value, moves-left and score heads (`docs/bundle.md`).
//!
//! The graph has one input, `input` `[N, planes, height, width]` (N free), and the outputs `policy` `[N,
//! actions]` (logits over the whole action space), `wdl` `[N, 3]` (logits of win, draw and loss for the side to
//! move) and, when the network has those heads, `moves_left` `[N]` and `score` `[N]`, in that order. Batch norm is written in inference form (its
//! running statistics), so the model computes what the network computes in evaluation mode.
//!
//! The weights come straight from a checkpoint file (`zero-checkpoint`), by their names in the network's
//! variable store (`stem.weight`, `block0.norm1.running_mean`, `policy_fc.bias`, ...): no tch is involved.

use crate::OnnxError;
use crate::proto as pb;
use prost::Message;
use std::collections::HashMap;
use std::path::Path;
use zero_checkpoint::{CheckpointMeta, NetShape, NetworkConfig, ParsedTensors, PolicyHead};

/// The ONNX operator set the graph is written for (every operator used keeps its attributes form there).
pub const OPSET: i64 = 13;
/// The ONNX IR version written (IR 7 goes with opset 13).
const IR_VERSION: i64 = 7;
/// Batch norm's epsilon in tch's default `BatchNormConfig`, which the network uses.
const BATCH_NORM_EPSILON: f32 = 1e-5;

/// A checkpoint's weights by name: shape and float32 values.
type Weights<'a> = HashMap<&'a str, (&'a [usize], &'a [f32])>;

/// The network of the checkpoint file at `path` as a serialized ONNX model (the file is verified whole first).
pub fn checkpoint_file_to_onnx(path: &Path) -> Result<Vec<u8>, OnnxError> {
    let (meta, tensors) = zero_checkpoint::read(path)?;
    let shape = meta.shape(path)?;
    let doc = format!(
        "zero {} network, generation {}, step {}, from {}",
        meta.game,
        meta.generation,
        meta.step,
        path.display()
    );
    checkpoint_to_onnx(&meta, shape, &tensors, &doc)
}

/// The network a checkpoint's metadata describes, for its game's `shape` ([`CheckpointMeta::shape`]), with its
/// tensors, as a serialized ONNX model; `doc` goes into the model's doc string (what it was made from).
pub fn checkpoint_to_onnx(
    meta: &CheckpointMeta,
    shape: NetShape,
    tensors: &ParsedTensors,
    doc: &str,
) -> Result<Vec<u8>, OnnxError> {
    meta.network
        .validate_for(shape)
        .map_err(|e| OnnxError::Model(e.to_string()))?;
    let weights: Weights = tensors
        .iter()
        .map(|(name, shape, values)| (name.as_str(), (shape.as_slice(), values.as_slice())))
        .collect();
    write_model(&meta.network, shape, &weights, doc)
}

/// The network as a serialized ONNX `ModelProto`.
fn write_model(config: &NetworkConfig, shape: NetShape, weights: &Weights, doc: &str) -> Result<Vec<u8>, OnnxError> {
    let mut graph = GraphWriter::new(weights);
    let mut x = graph.stem()?;
    for block in 0..config.blocks {
        x = graph.residual_block(&format!("block{block}"), &x, config.squeeze_excitation)?;
    }
    match config.policy_head {
        PolicyHead::Linear => graph.linear_policy_head(&x)?,
        PolicyHead::Conv => graph.conv_policy_head(&x, &shape.policy_map())?,
    }
    graph.value_heads(&x, config.global_pool)?;
    if config.moves_left {
        graph.scalar_head("moves_left", "Softplus")?;
    }
    if config.score {
        graph.scalar_head("score", "Tanh")?;
    }
    let mut outputs = vec![
        value_info("policy", &[Dim::Batch, Dim::Fixed(shape.actions)]),
        value_info("wdl", &[Dim::Batch, Dim::Fixed(3)]),
    ];
    if config.moves_left {
        outputs.push(value_info("moves_left", &[Dim::Batch]));
    }
    if config.score {
        outputs.push(value_info("score", &[Dim::Batch]));
    }
    let input = value_info(
        "input",
        &[
            Dim::Batch,
            Dim::Fixed(shape.planes),
            Dim::Fixed(shape.height),
            Dim::Fixed(shape.width),
        ],
    );
    let model = pb::ModelProto {
        ir_version: IR_VERSION,
        opset_import: vec![pb::OperatorSetIdProto {
            domain: String::new(),
            version: OPSET,
        }],
        producer_name: "zero".to_string(),
        producer_version: env!("CARGO_PKG_VERSION").to_string(),
        doc_string: doc.to_string(),
        graph: Some(pb::GraphProto {
            name: "zero-policy-value".to_string(),
            node: graph.nodes,
            initializer: graph.initializers,
            input: vec![input],
            output: outputs,
        }),
    };
    Ok(model.encode_to_vec())
}

enum Dim {
    Batch,
    Fixed(i64),
}

fn value_info(name: &str, dims: &[Dim]) -> pb::ValueInfoProto {
    use pb::{Dimension, DimensionValue};
    let dim = dims
        .iter()
        .map(|d| Dimension {
            value: Some(match d {
                Dim::Batch => DimensionValue::DimParam("N".to_string()),
                Dim::Fixed(n) => DimensionValue::DimValue(*n),
            }),
        })
        .collect();
    pb::ValueInfoProto {
        name: name.to_string(),
        r#type: Some(pb::TypeProto {
            tensor_type: Some(pb::TensorTypeProto {
                elem_type: pb::data_type::FLOAT,
                shape: Some(pb::TensorShapeProto { dim }),
            }),
        }),
    }
}

fn ints(name: &str, values: &[i64]) -> pb::AttributeProto {
    pb::AttributeProto {
        name: name.to_string(),
        r#type: pb::attribute_type::INTS,
        ints: values.to_vec(),
        ..Default::default()
    }
}

fn int(name: &str, value: i64) -> pb::AttributeProto {
    pb::AttributeProto {
        name: name.to_string(),
        r#type: pb::attribute_type::INT,
        i: value,
        ..Default::default()
    }
}

fn float(name: &str, value: f32) -> pb::AttributeProto {
    pb::AttributeProto {
        name: name.to_string(),
        r#type: pb::attribute_type::FLOAT,
        f: value,
        ..Default::default()
    }
}

/// Builds the node list and the initializers (weights), naming each value after the layer that makes it.
struct GraphWriter<'a> {
    weights: &'a Weights<'a>,
    nodes: Vec<pb::NodeProto>,
    initializers: Vec<pb::TensorProto>,
}

impl<'a> GraphWriter<'a> {
    fn new(weights: &'a Weights<'a>) -> Self {
        GraphWriter {
            weights,
            nodes: Vec::new(),
            initializers: Vec::new(),
        }
    }

    /// Adds the variable `name` as an initializer of the same name, and returns the name.
    fn weight(&mut self, name: &str) -> Result<String, OnnxError> {
        Ok(self.weight_with_shape(name)?.0)
    }

    /// [`GraphWriter::weight`], with the weight's shape.
    fn weight_with_shape(&mut self, name: &str) -> Result<(String, Vec<i64>), OnnxError> {
        let &(shape, values) = self.weights.get(name).ok_or_else(|| OnnxError::Weight {
            name: name.to_string(),
            reason: "not in the checkpoint".to_string(),
        })?;
        if shape.iter().product::<usize>() != values.len() {
            return Err(OnnxError::Weight {
                name: name.to_string(),
                reason: format!("shape {shape:?} but {} values", values.len()),
            });
        }
        let shape: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        self.constant(name, shape.clone(), values.to_vec());
        Ok((name.to_string(), shape))
    }

    fn constant(&mut self, name: &str, dims: Vec<i64>, values: Vec<f32>) {
        self.initializers.push(pb::TensorProto {
            name: name.to_string(),
            dims,
            data_type: pb::data_type::FLOAT,
            float_data: values,
            ..Default::default()
        });
    }

    fn constant_ints(&mut self, name: &str, values: &[i64]) {
        self.initializers.push(pb::TensorProto {
            name: name.to_string(),
            dims: vec![values.len() as i64],
            data_type: pb::data_type::INT64,
            int64_data: values.to_vec(),
            ..Default::default()
        });
    }

    /// Adds a node; its one output is named `output`, which is returned.
    fn node(&mut self, op: &str, inputs: &[&str], output: &str, attributes: Vec<pb::AttributeProto>) -> String {
        self.nodes.push(pb::NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![output.to_string()],
            name: output.to_string(),
            op_type: op.to_string(),
            attribute: attributes,
        });
        output.to_string()
    }

    /// A bias-free convolution (3x3 with padding 1, or 1x1), from variable `layer.weight`.
    fn conv(&mut self, layer: &str, input: &str) -> Result<String, OnnxError> {
        self.conv_node(layer, input, false)
    }

    /// A convolution with a bias, from `layer.weight` and `layer.bias`.
    fn conv_with_bias(&mut self, layer: &str, input: &str) -> Result<String, OnnxError> {
        self.conv_node(layer, input, true)
    }

    fn conv_node(&mut self, layer: &str, input: &str, bias: bool) -> Result<String, OnnxError> {
        let (weight, shape) = self.weight_with_shape(&format!("{layer}.weight"))?;
        let kernel = match shape.as_slice() {
            [_, _, k, k2] if k == k2 && k % 2 == 1 => *k,
            _ => {
                return Err(OnnxError::Weight {
                    name: format!("{layer}.weight"),
                    reason: format!("shape {shape:?} is not an odd square convolution kernel"),
                });
            }
        };
        let pad = (kernel - 1) / 2;
        let attributes = vec![
            ints("kernel_shape", &[kernel, kernel]),
            ints("pads", &[pad, pad, pad, pad]),
            ints("strides", &[1, 1]),
        ];
        let bias = if bias {
            Some(self.weight(&format!("{layer}.bias"))?)
        } else {
            None
        };
        let inputs: Vec<&str> = [input, &weight].into_iter().chain(bias.as_deref()).collect();
        Ok(self.node("Conv", &inputs, layer, attributes))
    }

    /// Batch norm in inference form, from `layer.{weight,bias,running_mean,running_var}`.
    fn batch_norm(&mut self, layer: &str, input: &str) -> Result<String, OnnxError> {
        let names: Vec<String> = ["weight", "bias", "running_mean", "running_var"]
            .iter()
            .map(|part| self.weight(&format!("{layer}.{part}")))
            .collect::<Result<_, _>>()?;
        let inputs = [input, &names[0], &names[1], &names[2], &names[3]];
        Ok(self.node(
            "BatchNormalization",
            &inputs,
            layer,
            vec![float("epsilon", BATCH_NORM_EPSILON)],
        ))
    }

    /// A linear layer `x W^T + b`, from `layer.weight` (`[out, in]`) and `layer.bias`.
    fn linear(&mut self, layer: &str, input: &str) -> Result<String, OnnxError> {
        let weight = self.weight(&format!("{layer}.weight"))?;
        let bias = self.weight(&format!("{layer}.bias"))?;
        Ok(self.node("Gemm", &[input, &weight, &bias], layer, vec![int("transB", 1)]))
    }

    fn unary(&mut self, op: &str, input: &str, output: &str) -> String {
        self.node(op, &[input], output, Vec::new())
    }

    fn stem(&mut self) -> Result<String, OnnxError> {
        let x = self.conv("stem", "input")?;
        let x = self.batch_norm("stem_norm", &x)?;
        Ok(self.unary("Relu", &x, "stem_relu"))
    }

    fn residual_block(&mut self, block: &str, input: &str, gate: bool) -> Result<String, OnnxError> {
        let y = self.conv(&format!("{block}.conv1"), input)?;
        let y = self.batch_norm(&format!("{block}.norm1"), &y)?;
        let y = self.unary("Relu", &y, &format!("{block}.relu1"));
        let y = self.conv(&format!("{block}.conv2"), &y)?;
        let mut y = self.batch_norm(&format!("{block}.norm2"), &y)?;
        if gate {
            let mean = self.node(
                "ReduceMean",
                &[&y],
                &format!("{block}.se_mean"),
                vec![ints("axes", &[2, 3]), int("keepdims", 0)],
            );
            let s = self.linear(&format!("{block}.se1"), &mean)?;
            let s = self.unary("Relu", &s, &format!("{block}.se_relu"));
            let s = self.linear(&format!("{block}.se2"), &s)?;
            let s = self.unary("Sigmoid", &s, &format!("{block}.se_sigmoid"));
            let axes = format!("{block}.se_axes");
            self.constant_ints(&axes, &[2, 3]);
            let s = self.node("Unsqueeze", &[&s, &axes], &format!("{block}.se_gate"), Vec::new());
            y = self.node("Mul", &[&y, &s], &format!("{block}.se_scaled"), Vec::new());
        }
        let sum = self.node("Add", &[&y, input], &format!("{block}.sum"), Vec::new());
        Ok(self.unary("Relu", &sum, &format!("{block}.out")))
    }

    /// The policy head's features: its 1x1 convolution, norm and ReLU.
    fn policy_features(&mut self, x: &str) -> Result<String, OnnxError> {
        let p = self.conv("policy_conv", x)?;
        let p = self.batch_norm("policy_norm", &p)?;
        Ok(self.unary("Relu", &p, "policy_relu"))
    }

    fn linear_policy_head(&mut self, x: &str) -> Result<(), OnnxError> {
        let p = self.policy_features(x)?;
        let p = self.node("Flatten", &[&p], "policy_flat", vec![int("axis", 1)]);
        let logits = self.linear("policy_fc", &p)?;
        self.unary("Identity", &logits, "policy");
        Ok(())
    }

    /// The convolutional head: the action planes flattened, each action's logit gathered at its index `map`.
    fn conv_policy_head(&mut self, x: &str, map: &[i64]) -> Result<(), OnnxError> {
        let p = self.policy_features(x)?;
        let planes = self.conv_with_bias("policy_planes", &p)?;
        let flat = self.node("Flatten", &[&planes], "policy_flat", vec![int("axis", 1)]);
        self.constant_ints("policy_map", map);
        self.node("Gather", &[&flat, "policy_map"], "policy", vec![int("axis", 1)]);
        Ok(())
    }

    /// The value head; its features (`value_features`) also feed the scalar heads.
    fn value_heads(&mut self, x: &str, global_pool: bool) -> Result<(), OnnxError> {
        let v = self.conv("value_conv", x)?;
        let v = self.batch_norm("value_norm", &v)?;
        let v = self.unary("Relu", &v, "value_relu");
        let features = if global_pool {
            let pool = vec![ints("axes", &[2, 3]), int("keepdims", 0)];
            let mean = self.node("ReduceMean", &[&v], "value_mean", pool.clone());
            let max = self.node("ReduceMax", &[&v], "value_max", pool);
            self.node("Concat", &[&mean, &max], "value_features", vec![int("axis", 1)])
        } else {
            self.node("Flatten", &[&v], "value_features", vec![int("axis", 1)])
        };
        let h = self.linear("value_fc1", &features)?;
        let h = self.unary("Relu", &h, "value_hidden");
        let wdl = self.linear("value_fc2", &h)?;
        self.unary("Identity", &wdl, "wdl");
        Ok(())
    }

    /// A hidden head on the value features with one output per position, `activation` applied, as the output
    /// `name` `[N]` (its weights `NAME_fc1` and `NAME_fc2`).
    fn scalar_head(&mut self, name: &str, activation: &str) -> Result<(), OnnxError> {
        let h = self.linear(&format!("{name}_fc1"), "value_features")?;
        let h = self.unary("Relu", &h, &format!("{name}_hidden"));
        let m = self.linear(&format!("{name}_fc2"), &h)?;
        let m = self.unary(activation, &m, &format!("{name}_activation"));
        let axes = format!("{name}_axes");
        self.constant_ints(&axes, &[1]);
        self.node("Squeeze", &[&m, &axes], name, Vec::new());
        Ok(())
    }
}
