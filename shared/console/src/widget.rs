//! The waiting widget (spec 000's UI contract), the approval card, and how
//! an answer's text becomes typed values and a refusal becomes messages.

use std::collections::HashMap;
use std::fmt::Write;

use adas_proto::pb;
use adas_runtime::convert::struct_to_json;

use crate::html::{call_text, esc};

/// What a refused answer leaves on the widget: per field, the message and the value sent.
#[derive(Debug, Default)]
pub(crate) struct Refusal {
    pub(crate) messages: HashMap<String, String>,
    pub(crate) values: HashMap<String, String>,
    pub(crate) general: Option<String>,
}

/// The waiting widget: the prompt, then one typed input per requested field.
pub(crate) fn widget(job: &str, waiting: &pb::Waiting, refusal: &Refusal) -> String {
    let mut fields = String::new();
    for (index, name) in waiting.requested_fields.iter().enumerate() {
        let detail = waiting
            .fields
            .get(index)
            .filter(|field| &field.name == name);
        let kind = detail.map_or("string", |field| field.r#type.as_str());
        let label = detail
            .map(|field| field.prompt.as_str())
            .filter(|prompt| !prompt.is_empty())
            .unwrap_or(name);
        let required = detail.is_none_or(|field| field.required);
        let value = refusal.values.get(name).map_or("", String::as_str);
        let input_name = format!("f.{name}");
        let choice = detail.filter(|field| {
            field.input_type == pb::InputType::Choice as i32 || !field.options.is_empty()
        });
        let control = if let Some(field) = choice {
            let mut options = String::from("<option value=\"\">Choose…</option>");
            for (i, option) in field.options.iter().enumerate() {
                let text = field
                    .option_labels
                    .get(i)
                    .filter(|label| !label.is_empty())
                    .map_or(option.as_str(), String::as_str);
                let _ = write!(
                    options,
                    "<option value=\"{}\"{}>{}</option>",
                    esc(option),
                    if value == option { " selected" } else { "" },
                    esc(text)
                );
            }
            format!(
                "<select name=\"{}\"{}>{options}</select>",
                esc(&input_name),
                if required { " required" } else { "" }
            )
        } else {
            let (html_type, extra) = match kind {
                "number" => ("number", " step=\"any\""),
                "integer" => ("number", " step=\"1\""),
                "email" => ("email", ""),
                "date" => ("date", ""),
                "phone" => ("tel", ""),
                "boolean" => ("text", " pattern=\"(?i)(true|false|yes|no)\""),
                _ => ("text", ""),
            };
            format!(
                "<input name=\"{}\" type=\"{html_type}\"{extra} value=\"{}\" data-type=\"{}\"{}>",
                esc(&input_name),
                esc(value),
                esc(kind),
                if required { " required" } else { "" }
            )
        };
        let message = refusal
            .messages
            .get(name)
            .map(|message| format!("<span class=\"invalid\">{}</span>", esc(message)))
            .unwrap_or_default();
        let _ = write!(
            fields,
            "<label class=\"field\" data-field=\"{}\"><span class=\"label\">{}</span>{control}{message}</label>",
            esc(name),
            esc(label)
        );
    }
    let call = waiting
        .approval
        .as_ref()
        .map(|approval| {
            let arguments = approval
                .arguments
                .as_ref()
                .map(struct_to_json)
                .unwrap_or_default();
            format!(
                "<p class=\"call\">The call: <code>{}</code></p>",
                esc(&call_text(&approval.tool, &arguments))
            )
        })
        .unwrap_or_default();
    let general = refusal
        .general
        .as_ref()
        .map(|message| format!("<p class=\"invalid\">{}</p>", esc(message)))
        .unwrap_or_default();
    let retries = if waiting.invalid_answer_count > 0 {
        format!(
            "<p class=\"hint\">{} answer(s) refused so far.</p>",
            waiting.invalid_answer_count
        )
    } else {
        String::new()
    };
    format!(
        "<form method=\"post\" action=\"/{}/answer\" class=\"widget card\" data-reason=\"{}\">\
         <h2>Input needed</h2><p class=\"prompt\">{}</p>{call}{general}{retries}\
         <input type=\"hidden\" name=\"correlation_id\" value=\"{}\">{fields}\
         <button type=\"submit\">Send</button></form>",
        esc(job),
        esc(&waiting.reason_code),
        esc(&waiting.prompt_message),
        esc(&waiting.correlation_id)
    )
}

/// The takeover form of an escalated job: why it was handed over (and any
/// draft), and the reply the human in charge sends the user in the agent's
/// place, which the DAL-Agent reads as it reads `adas job takeover`. Only a
/// principal who may take over (an operator or admin of the tenant) gets the
/// form; anyone else is told who will.
pub(crate) fn takeover_form(
    job: &str,
    waiting: &pb::Waiting,
    refusal: &Refusal,
    may_take_over: bool,
) -> String {
    let head = format!(
        "<h2>Escalated: a human replies</h2><p class=\"prompt\">{}</p>",
        esc(&waiting.prompt_message)
    );
    if !may_take_over {
        return format!(
            "<section class=\"takeover card\" data-reason=\"{}\">{head}\
             <p class=\"not-yours\">An operator of the tenant takes it over: you are not one.</p></section>",
            esc(&waiting.reason_code)
        );
    }
    let message = |text: Option<&String>| {
        text.map(|text| format!("<span class=\"invalid\">{}</span>", esc(text)))
            .unwrap_or_default()
    };
    format!(
        "<form method=\"post\" action=\"/{}/answer\" class=\"takeover card\" data-reason=\"{}\">{head}{}\
         <input type=\"hidden\" name=\"correlation_id\" value=\"{}\">\
         <label class=\"field\" data-field=\"reply\"><span class=\"label\">Your reply to the user</span>\
         <textarea name=\"f.reply\" rows=\"4\" required maxlength=\"{MAX_REPLY_CHARS}\">{}</textarea>{}</label>\
         <button type=\"submit\">Send the reply and end the job</button></form>",
        esc(job),
        esc(&waiting.reason_code),
        message(refusal.general.as_ref()),
        esc(&waiting.correlation_id),
        esc(refusal.values.get("reply").map_or("", String::as_str)),
        message(refusal.messages.get("reply")),
    )
}

/// The longest reply the form lets a browser send; the DAL-Agent's own
/// bound (in bytes) is what holds.
const MAX_REPLY_CHARS: usize = 16 * 1024;

/// The approval card: the exact call and its amount, who must decide, why.
pub(crate) fn approval_card(
    job: &str,
    waiting: &pb::Waiting,
    approval: &pb::ApprovalRequest,
    refusal: &Refusal,
    may_decide: bool,
) -> String {
    let arguments = approval
        .arguments
        .as_ref()
        .map(struct_to_json)
        .unwrap_or_default();
    let mut rows = String::new();
    for (name, value) in &arguments {
        let _ = write!(
            rows,
            "<tr class=\"argument {}\"><th>{}</th><td>{}</td></tr>",
            if name == "amount" { "amount" } else { "" },
            esc(name),
            esc(&value.to_string())
        );
    }
    let general = refusal
        .general
        .as_ref()
        .map(|message| format!("<p class=\"invalid\">{}</p>", esc(message)))
        .unwrap_or_default();
    // Offered only to a principal holding the role: the suite would refuse
    // anyone else, and a button that can only fail is no control.
    let decide = if may_decide {
        format!(
            "<form method=\"post\" action=\"/{}/decide\">\
             <input type=\"hidden\" name=\"correlation_id\" value=\"{}\">\
             <label>Why <input name=\"comment\" maxlength=\"4096\"></label>\
             <button type=\"submit\" name=\"decision\" value=\"approve\">Approve</button>\
             <button type=\"submit\" name=\"decision\" value=\"reject\" class=\"secondary\">Deny</button>\
             </form>",
            esc(job),
            esc(&waiting.correlation_id)
        )
    } else {
        format!(
            "<p class=\"not-yours\">Waiting for a decision by a <strong>{}</strong>: \
             you do not hold that role.</p>",
            esc(&approval.approver)
        )
    };
    format!(
        "<section class=\"approval card\"><h2>Approval needed</h2>\
         <p class=\"call\"><code>{}</code></p><table>{rows}</table>\
         <p>Approver role: <strong class=\"approver\">{}</strong>{}{}</p>{general}{decide}</section>",
        esc(&call_text(&approval.tool, &arguments)),
        esc(&approval.approver),
        if approval.reason.is_empty() {
            String::new()
        } else {
            format!(" · {}", esc(&approval.reason))
        },
        if approval.condition.is_empty() {
            String::new()
        } else {
            format!(" · when <code>{}</code>", esc(&approval.condition))
        },
    )
}

/// The answer as typed values: a number field's text that reads as a finite
/// number is sent as one, a boolean's as a boolean; everything else as text,
/// for the DAL-Agent to validate (and refuse with a message per field).
pub(crate) fn typed(kind: &str, text: &str) -> prost_types::Value {
    use prost_types::value::Kind;
    let kind = match kind {
        "number" | "integer" => match text.trim().parse::<f64>() {
            Ok(number) if number.is_finite() => Kind::NumberValue(number),
            _ => Kind::StringValue(text.to_owned()),
        },
        "boolean" => match text.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" => Kind::BoolValue(true),
            "false" | "no" => Kind::BoolValue(false),
            _ => Kind::StringValue(text.to_owned()),
        },
        _ => Kind::StringValue(text.to_owned()),
    };
    prost_types::Value { kind: Some(kind) }
}

/// A refused call's field violations, by the answer's field names.
pub(crate) fn refusal_of(status: &tonic::Status, values: HashMap<String, String>) -> Refusal {
    use tonic_types::StatusExt;
    let mut refusal = Refusal {
        values,
        ..Refusal::default()
    };
    if let Some(bad) = status.get_details_bad_request() {
        for violation in bad.field_violations {
            let field = violation
                .field
                .strip_prefix("fields.")
                .unwrap_or(&violation.field)
                .to_owned();
            refusal.messages.insert(field, violation.description);
        }
    }
    if refusal.messages.is_empty() {
        refusal.general = Some(status.message().to_owned());
    }
    refusal
}
