//! Engine settings: a preset name (`standard`, `careful`, `fast`, `autonomous`) or
//! an object that replaces the preset (fields it leaves out take the `standard`
//! values). The builder's `engine.rv2.*` and `engine.internal_error.loop_detection`
//! are read too.

use serde::{Deserialize, Serialize};

use crate::model::EngineSpec;

/// The preset names.
pub const PRESETS: &[&str] = &["standard", "careful", "fast", "autonomous"];

/// Resolved engine settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineConfig {
    /// Preset the settings started from.
    pub preset: String,
    /// Model name, if any.
    pub model: Option<String>,
    /// The finalization gate's model, if any (else `model`).
    pub gate_model: Option<String>,
    /// The model chooses each next call after the last result (`engine.loop: rv2`).
    pub rv2: bool,
    /// Sampling temperature.
    pub temperature: f64,
    /// Iteration budget (tool calls per job).
    pub max_iterations: u32,
    /// `fail` | `ask_user` | `escalate`.
    pub on_max_iterations: String,
    /// Whether the finalization gate runs.
    pub finalization_gate_enabled: bool,
    /// Replans after a failed gate.
    pub finalization_max_retries: u32,
    /// Whether identical calls are detected.
    pub loop_detection_enabled: bool,
    /// Identical calls that trip loop detection.
    pub identical_call_threshold: u32,
    /// A waiting job whose ask is older than this (ms) ends as EXPIRED; `None`: never.
    pub wait_timeout_ms: Option<u64>,
    /// Invalid answers to one ask before the job escalates.
    pub max_invalid_answers: u32,
    /// Every side effect waits for its user's yes (`engine.autonomy.level:
    /// supervised`).
    #[serde(default)]
    pub confirm_side_effects: bool,
    /// How long one tool call may take (`engine.rv2.iteration_timeout_ms`);
    /// `None`: the deployment's limit alone.
    #[serde(default)]
    pub call_timeout_ms: Option<u64>,
}

impl EngineConfig {
    /// The settings of a preset; unknown names get `standard`.
    pub fn preset(name: &str) -> Self {
        let standard = Self {
            preset: "standard".into(),
            model: None,
            gate_model: None,
            rv2: false,
            temperature: 0.3,
            max_iterations: 10,
            on_max_iterations: "fail".into(),
            finalization_gate_enabled: true,
            finalization_max_retries: 2,
            loop_detection_enabled: true,
            identical_call_threshold: 3,
            wait_timeout_ms: None,
            max_invalid_answers: 3,
            confirm_side_effects: false,
            call_timeout_ms: None,
        };
        match name {
            "careful" => Self {
                preset: name.into(),
                temperature: 0.1,
                max_iterations: 15,
                finalization_max_retries: 3,
                identical_call_threshold: 2,
                ..standard
            },
            "fast" => Self {
                preset: name.into(),
                max_iterations: 6,
                finalization_gate_enabled: false,
                finalization_max_retries: 0,
                ..standard
            },
            "autonomous" => Self {
                preset: name.into(),
                max_iterations: 25,
                on_max_iterations: "escalate".into(),
                identical_call_threshold: 4,
                ..standard
            },
            _ => standard,
        }
    }

    /// Resolves a skill's `engine` field (absent means `standard`).
    pub fn resolve(spec: Option<&EngineSpec>) -> Self {
        let settings = match spec {
            None => return Self::preset("standard"),
            Some(EngineSpec::Preset(name)) => return Self::preset(name),
            Some(EngineSpec::Settings(settings)) => settings,
        };
        let base = Self::preset("standard");
        let rv2 = settings.rv2.clone().unwrap_or_default();
        let gate = settings.finalization_gate.clone().unwrap_or_default();
        let loop_detection = settings
            .loop_detection
            .clone()
            .or_else(|| {
                settings
                    .internal_error
                    .as_ref()
                    .and_then(|internal| internal.loop_detection.clone())
            })
            .unwrap_or_default();
        Self {
            preset: "custom".into(),
            model: settings.model.clone(),
            gate_model: settings.gate_model.clone(),
            rv2: settings.loop_mode.as_deref() == Some("rv2"),
            temperature: settings.temperature.unwrap_or(base.temperature),
            max_iterations: settings
                .max_iterations
                .or(rv2.max_iterations)
                .unwrap_or(base.max_iterations)
                .max(1),
            on_max_iterations: settings
                .on_max_iterations
                .clone()
                .or(rv2.on_max_iterations)
                .unwrap_or(base.on_max_iterations),
            finalization_gate_enabled: gate.enabled.unwrap_or(base.finalization_gate_enabled),
            finalization_max_retries: gate.max_retries.unwrap_or(base.finalization_max_retries),
            loop_detection_enabled: loop_detection
                .enabled
                .unwrap_or(base.loop_detection_enabled),
            identical_call_threshold: loop_detection
                .identical_call_threshold
                .unwrap_or(base.identical_call_threshold)
                .max(1),
            wait_timeout_ms: settings.wait_timeout_ms.filter(|ms| *ms > 0),
            max_invalid_answers: settings
                .max_invalid_answers
                .unwrap_or(base.max_invalid_answers)
                .max(1),
            confirm_side_effects: settings
                .autonomy
                .as_ref()
                .and_then(|autonomy| autonomy.level.as_deref())
                .is_some_and(|level| level.eq_ignore_ascii_case("supervised")),
            call_timeout_ms: rv2.iteration_timeout_ms.filter(|ms| *ms > 0),
        }
    }
}
