//! Domain → wire conversions.

use adas_proto::pb;
use adas_runtime::convert::json_to_struct;
use adas_skill::compile::{CompiledGuardrail, CompiledPolicy};
use adas_skill::{Diagnostic, Format, OperationalSkill, Severity};

pub fn skill(skill: &OperationalSkill) -> pb::Skill {
    let modified = prost_types::Timestamp::from(skill.modified);
    pb::Skill {
        name: format!("skills/{}", skill.slag),
        slag: skill.slag.clone(),
        display_name: skill
            .skill
            .name
            .clone()
            .unwrap_or_else(|| skill.slag.clone()),
        source: skill.source.clone(),
        format: match skill.format {
            Format::Yaml => pb::SkillFormat::Yaml,
            Format::Json => pb::SkillFormat::Json,
        } as i32,
        document: Some(json_to_struct(&skill.document)),
        template: skill.template.clone().unwrap_or_default(),
        compiled_policy: Some(compiled_policy(&skill.compiled)),
        resources: skill
            .skill
            .resources
            .iter()
            .map(|resource| pb::ResourceDeclaration {
                name: resource.name.clone(),
                r#type: resource_type(&resource.kind) as i32,
                required: resource.required,
                description: resource.description.clone().unwrap_or_default(),
            })
            .collect(),
        mcp_server: skill.skill.mcp_server.clone().unwrap_or_default(),
        diagnostics: skill.warnings.iter().map(diagnostic).collect(),
        create_time: None,
        update_time: Some(modified),
        etag: skill.etag.clone(),
    }
}

/// A slag whose file does not validate: listed, with nothing else known.
pub fn unloadable(slag: &str) -> pb::Skill {
    pb::Skill {
        name: format!("skills/{slag}"),
        slag: slag.to_owned(),
        ..pb::Skill::default()
    }
}

fn resource_type(kind: &str) -> pb::ResourceType {
    match kind {
        "filesystem" => pb::ResourceType::Filesystem,
        "connection_string" => pb::ResourceType::ConnectionString,
        "api_endpoint" => pb::ResourceType::ApiEndpoint,
        "credential" => pb::ResourceType::Credential,
        _ => pb::ResourceType::Unspecified,
    }
}

pub fn tool(tool: &adas_tools::ToolSpec) -> pb::ToolSpec {
    pb::ToolSpec {
        name: tool.name.clone(),
        description: tool.description.clone(),
        inputs: tool
            .inputs
            .iter()
            .map(|input| pb::ToolInput {
                name: input.name.clone(),
                r#type: input.kind.clone(),
                required: input.required,
                description: input.description.clone(),
                enum_values: input
                    .allowed
                    .iter()
                    .map(|value| {
                        value
                            .as_str()
                            .map_or_else(|| value.to_string(), str::to_owned)
                    })
                    .collect(),
            })
            .collect(),
        input_schema: tool
            .input_schema
            .is_object()
            .then(|| json_to_struct(&tool.input_schema)),
        source: Some(match &tool.source {
            adas_tools::ToolSource::Core => pb::ToolSource {
                kind: pb::ToolSourceKind::Core as i32,
                uri: String::new(),
            },
            adas_tools::ToolSource::Mcp { uri } => pb::ToolSource {
                kind: pb::ToolSourceKind::Mcp as i32,
                uri: uri.clone(),
            },
        }),
        available: tool.available,
        unavailable_reason: tool.unavailable_reason.clone().unwrap_or_default(),
        availability: match tool.availability {
            adas_tools::Availability::Available => pb::ToolAvailability::Available,
            adas_tools::Availability::NotServed => pb::ToolAvailability::NotServed,
            adas_tools::Availability::Unaccepted => pb::ToolAvailability::Unaccepted,
            adas_tools::Availability::Undeclared => pb::ToolAvailability::Undeclared,
            adas_tools::Availability::NeverAllowed => pb::ToolAvailability::NeverAllowed,
            adas_tools::Availability::NeedsApproval => pb::ToolAvailability::NeedsApproval,
            adas_tools::Availability::Held => pb::ToolAvailability::Held,
        } as i32,
    }
}

pub fn diagnostic(diagnostic: &Diagnostic) -> pb::Diagnostic {
    pb::Diagnostic {
        severity: match diagnostic.severity {
            Severity::Error => pb::Severity::Error,
            Severity::Warning => pb::Severity::Warning,
        } as i32,
        path: diagnostic.path.clone(),
        line: diagnostic.line as i32,
        column: diagnostic.column as i32,
        message: diagnostic.message.clone(),
        code: diagnostic.code.to_owned(),
    }
}

fn compiled_policy(policy: &CompiledPolicy) -> pb::CompiledPolicy {
    pb::CompiledPolicy {
        guardrails: policy
            .guardrails
            .iter()
            .map(|guardrail| match guardrail {
                CompiledGuardrail::ToolDeny { tool, original } => pb::CompiledGuardrail {
                    r#type: pb::GuardrailType::ToolDeny as i32,
                    tool: tool.clone(),
                    original: original.clone(),
                    ..Default::default()
                },
                CompiledGuardrail::Threshold {
                    field,
                    operator,
                    value,
                    original,
                    ..
                } => pb::CompiledGuardrail {
                    r#type: pb::GuardrailType::Threshold as i32,
                    field: field.clone(),
                    operator: operator.as_str().to_owned(),
                    value: *value,
                    original: original.clone(),
                    ..Default::default()
                },
                CompiledGuardrail::RequiresApproval { tool, original } => pb::CompiledGuardrail {
                    r#type: pb::GuardrailType::RequiresApproval as i32,
                    tool: tool.clone(),
                    original: original.clone(),
                    ..Default::default()
                },
            })
            .collect(),
        text_guardrails: policy.text_guardrails.clone(),
        tool_permissions: policy
            .tool_permissions
            .iter()
            .map(|permission| pb::ToolPermission {
                tool: permission.tool.clone(),
                allowed: match permission.allowed.as_str() {
                    "never" => pb::ToolAllowed::Never,
                    "conditional" => pb::ToolAllowed::Conditional,
                    _ => pb::ToolAllowed::Always,
                } as i32,
                requires_approval: permission.requires_approval.clone(),
                condition: permission.condition.clone().unwrap_or_default(),
            })
            .collect(),
        approvals: policy
            .approvals
            .iter()
            .map(|approval| pb::ApprovalRule {
                tool: approval.tool.clone(),
                when: approval.when.clone(),
                action: approval.action.clone(),
                approver: approval.approver.clone(),
            })
            .collect(),
        sub_goals: policy
            .sub_goals
            .iter()
            .map(|sub_goal| pb::SubGoal {
                id: sub_goal.id.clone(),
                intent: sub_goal.intent.clone(),
                depends_on: sub_goal.depends_on.clone(),
                workflow: sub_goal.workflow.clone(),
                required: sub_goal.required,
            })
            .collect(),
        allowed_tools: policy.allowed_tools.clone(),
        blocked_tools: policy.blocked_tools.clone(),
    }
}
