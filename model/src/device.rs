//! Which device a network runs on: `auto` (the first CUDA device when one is usable, else the CPU), `cpu`,
//! `cuda` or `cuda:N`; and in which number format it evaluates ([`Precision`]).

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeviceChoice {
    #[default]
    Auto,
    Cpu,
    Cuda(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    #[error("unknown device {0:?}: expected auto, cpu, cuda or cuda:N")]
    Unknown(String),
    #[error("device {requested} was asked for, but {available} CUDA device(s) are usable here; use `auto` or `cpu`")]
    Unavailable { requested: String, available: usize },
}

impl FromStr for DeviceChoice {
    type Err = DeviceError;
    fn from_str(s: &str) -> Result<Self, DeviceError> {
        match s.trim() {
            "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda(0)),
            other => other
                .strip_prefix("cuda:")
                .and_then(|i| i.parse().ok())
                .map(DeviceChoice::Cuda)
                .ok_or_else(|| DeviceError::Unknown(other.to_string())),
        }
    }
}

/// Written as its name (`auto`, `cpu`, `cuda:N`), as the command line takes it.
impl serde::Serialize for DeviceChoice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for DeviceChoice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceChoice::Auto => f.write_str("auto"),
            DeviceChoice::Cpu => f.write_str("cpu"),
            DeviceChoice::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}

impl DeviceChoice {
    /// The device to use here. CUDA is chosen only when a CUDA device is present; asking for one that is not
    /// is an error rather than a silent fall-back to the CPU.
    pub fn resolve(self) -> Result<tch::Device, DeviceError> {
        let available = if tch::Cuda::is_available() {
            tch::Cuda::device_count().max(0) as usize
        } else {
            0
        };
        resolve_with(self, available)
    }
}

/// [`DeviceChoice::resolve`] with the number of usable CUDA devices given (testable without a GPU).
pub fn resolve_with(choice: DeviceChoice, cuda_devices: usize) -> Result<tch::Device, DeviceError> {
    match choice {
        DeviceChoice::Cpu => Ok(tch::Device::Cpu),
        DeviceChoice::Auto if cuda_devices > 0 => Ok(tch::Device::Cuda(0)),
        DeviceChoice::Auto => Ok(tch::Device::Cpu),
        DeviceChoice::Cuda(i) if i < cuda_devices => Ok(tch::Device::Cuda(i)),
        DeviceChoice::Cuda(i) => Err(DeviceError::Unavailable {
            requested: format!("cuda:{i}"),
            available: cuda_devices,
        }),
    }
}

/// A device as zero writes it: `cpu` or `cuda:N`.
pub fn device_name(device: tch::Device) -> String {
    match device {
        tch::Device::Cpu => "cpu".to_string(),
        tch::Device::Cuda(i) => format!("cuda:{i}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// The number format a network evaluates positions in (inference only: training runs in f32, with mixed
/// precision on CUDA). `auto` is bf16 on a CPU with native bf16 arithmetic (x86 `avx512_bf16`), where it is about
/// twice as fast as f32 (`zero bench nn`), and f32 everywhere else, CUDA included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    #[default]
    Auto,
    F32,
    Bf16,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown precision {0:?}: expected auto, f32 or bf16")]
pub struct UnknownPrecision(pub String);

impl FromStr for Precision {
    type Err = UnknownPrecision;
    fn from_str(s: &str) -> Result<Self, UnknownPrecision> {
        match s.trim() {
            "auto" => Ok(Precision::Auto),
            "f32" => Ok(Precision::F32),
            "bf16" => Ok(Precision::Bf16),
            other => Err(UnknownPrecision(other.to_string())),
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Precision::Auto => "auto",
            Precision::F32 => "f32",
            Precision::Bf16 => "bf16",
        })
    }
}

impl Precision {
    /// The tensor kind to evaluate in on `device`: `Float` or `BFloat16`.
    pub fn kind(self, device: tch::Device) -> tch::Kind {
        match self {
            Precision::F32 => tch::Kind::Float,
            Precision::Bf16 => tch::Kind::BFloat16,
            Precision::Auto if device == tch::Device::Cpu && cpu_has_native_bf16() => tch::Kind::BFloat16,
            Precision::Auto => tch::Kind::Float,
        }
    }
}

/// Whether this CPU does bf16 arithmetic in hardware; elsewhere libtorch emulates it, slower than f32.
pub fn cpu_has_native_bf16() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One line naming this machine's CPU as the run's log records it: its model, the cores this process may use and
/// the widest vector extensions libtorch dispatches on. A run of one config and seed replays bit for bit only on
/// the same kind of CPU: another one picks other kernels (and `auto` another [`Precision`]), so the log says which.
pub fn cpu_summary() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| cpu_model_name(&text))
        .unwrap_or_else(|| format!("an unnamed {} CPU", std::env::consts::ARCH));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{model}, {cores} core(s), {}", cpu_vector_extensions())
}

/// The `model name` of the first processor in the text of `/proc/cpuinfo`.
fn cpu_model_name(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name" && !value.trim().is_empty()).then(|| value.trim().to_string())
    })
}

/// The vector extensions that change which kernels run: "avx512bf16", "avx512f", "avx2" or "no avx2".
fn cpu_vector_extensions() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if cpu_has_native_bf16() {
            return "avx512bf16";
        }
        if std::arch::is_x86_feature_detected!("avx512f") {
            return "avx512f";
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return "avx2";
        }
    }
    "no avx2"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precisions_parse_print_and_resolve() {
        for (text, precision) in [
            ("auto", Precision::Auto),
            ("f32", Precision::F32),
            ("bf16", Precision::Bf16),
        ] {
            assert_eq!(text.parse::<Precision>().unwrap(), precision);
            assert_eq!(precision.to_string(), text);
        }
        assert!(
            "fp16"
                .parse::<Precision>()
                .unwrap_err()
                .to_string()
                .contains("auto, f32 or bf16")
        );
        assert_eq!(Precision::F32.kind(tch::Device::Cpu), tch::Kind::Float);
        assert_eq!(Precision::Bf16.kind(tch::Device::Cpu), tch::Kind::BFloat16);
        assert_eq!(Precision::Auto.kind(tch::Device::Cuda(0)), tch::Kind::Float);
        let auto = if cpu_has_native_bf16() {
            tch::Kind::BFloat16
        } else {
            tch::Kind::Float
        };
        assert_eq!(Precision::Auto.kind(tch::Device::Cpu), auto);
    }

    #[test]
    fn parses_and_prints_every_form() {
        for (text, choice) in [
            ("auto", DeviceChoice::Auto),
            ("cpu", DeviceChoice::Cpu),
            ("cuda", DeviceChoice::Cuda(0)),
            ("cuda:3", DeviceChoice::Cuda(3)),
        ] {
            assert_eq!(text.parse::<DeviceChoice>().unwrap(), choice);
        }
        assert_eq!(DeviceChoice::Cuda(2).to_string(), "cuda:2");
        for bad in ["gpu", "cuda:", "cuda:x", ""] {
            assert!(
                matches!(bad.parse::<DeviceChoice>(), Err(DeviceError::Unknown(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_cpu_model_is_the_first_processors() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t\t: fpu avx2\n\n\
                       processor\t: 1\nmodel name\t: Another\n";
        assert_eq!(cpu_model_name(cpuinfo).as_deref(), Some("AMD EPYC"));
        assert_eq!(cpu_model_name("processor\t: 0\nmodel name\t:   \n"), None);
        assert_eq!(cpu_model_name(""), None);
        let summary = cpu_summary();
        assert!(summary.contains("core(s)"), "{summary}");
        assert!(summary.ends_with(cpu_vector_extensions()), "{summary}");
    }

    #[test]
    fn cuda_is_chosen_only_when_present() {
        assert_eq!(resolve_with(DeviceChoice::Auto, 0).unwrap(), tch::Device::Cpu);
        assert_eq!(resolve_with(DeviceChoice::Auto, 1).unwrap(), tch::Device::Cuda(0));
        assert_eq!(resolve_with(DeviceChoice::Cuda(1), 2).unwrap(), tch::Device::Cuda(1));
        let err = resolve_with(DeviceChoice::Cuda(0), 0).unwrap_err();
        assert!(err.to_string().contains("cuda:0"), "{err}");
        // On this machine: whatever is present, `auto` agrees with libtorch.
        let here = DeviceChoice::Auto.resolve().unwrap();
        assert_eq!(here.is_cuda(), tch::Cuda::is_available());
    }
}
