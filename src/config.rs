//! The run configuration file (TOML): which game under which rules, and one table per part of the pipeline,
//! each defined by the crate it configures. Unknown keys and wrong types are refused with the key's full path.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;
use zero_model::NetworkConfig;
use zero_selfplay::SelfPlayConfig;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The game: bashni, baghchal or tours.
    pub game: String,
    /// A named variant or preset of the game's rules (default: the game's default rules).
    #[serde(default)]
    pub variant: Option<String>,
    /// Rule options as `key=value`, applied after the variant.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The network's architecture.
    #[serde(default)]
    pub network: NetworkConfig,
    /// Self-play: search, workers and records.
    #[serde(default)]
    pub selfplay: SelfPlayConfig,
}

impl RunConfig {
    /// Parses a config from TOML text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<RunConfig> {
        let value: toml::Value = toml::from_str(text).with_context(|| format!("{origin}: not valid TOML"))?;
        let config: RunConfig = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            anyhow::anyhow!("{origin}: key `{path}`: {}", e.into_inner())
        })?;
        config
            .network
            .validate()
            .map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
        config
            .selfplay
            .validate()
            .map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
        if !zero_games::registry::GAME_NAMES.contains(&config.game.as_str()) {
            bail!(
                "{origin}: key `game`: unknown game {:?}; known games: {}",
                config.game,
                zero_games::registry::GAME_NAMES.join(", ")
            );
        }
        Ok(config)
    }

    pub fn load(path: &Path) -> Result<RunConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading config {}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_wrong_types_name_the_full_path() {
        let err = RunConfig::parse("game = \"bashni\"\n[network]\nchanels = 3\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("network.chanels") || err.contains("`network`"), "{err}");
        assert!(err.contains("chanels"), "{err}");
        let err = RunConfig::parse("game = \"bashni\"\n[network]\nblocks = \"six\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("network.blocks"), "{err}");
        let err = RunConfig::parse("game = \"chess\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown game \"chess\""), "{err}");
        let ok = RunConfig::parse("game = \"tours\"\n[network]\nblocks = 2\n", "t.toml").unwrap();
        assert_eq!(ok.network.blocks, 2);
    }
}
