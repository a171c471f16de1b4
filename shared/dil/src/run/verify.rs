//! A gate's verification: its predicates run against the work directory, with
//! the evidence each leaves, and the verification record written for the run.

use super::*;

/// Checks a gate after a clean agent exit. Verification may run commands, so it
/// runs off the async thread and is reported like a running agent.
pub(super) async fn verify_gate(
    context: &AttemptContext<'_>,
    terminal: &mut Terminal<'_>,
    interrupts: &mut Interrupts,
) -> (AttemptEnd, Option<Check>) {
    let (number, attempt) = (context.number, context.attempt);
    if let Some(tokens) = unsupported_tokens(&context.gate.predicate) {
        let check = Check {
            attempt,
            result: "unsupported",
            evidence: vec![Evidence {
                predicate: tokens.clone(),
                result: "unsupported".into(),
                detail: Json::Null,
            }],
        };
        let end = AttemptEnd {
            state: GateState::Unknown,
            class: Some(UnknownClass::UnknownVerifierLimit),
            reason: Some(format!("predicate contains unsupported tokens: {tokens}")),
            interrupted: false,
        };
        return (end, Some(check));
    }
    let predicate = context.gate.predicate.clone();
    let workdir = context.options.workdir.clone();
    let artifacts_dir = context.artifacts.dir.clone();
    let label = format!("verify.gate{number:02}.pass{attempt}");
    let mut task = tokio::task::spawn_blocking(move || {
        let mut evidence = Vec::new();
        let verdict = verify(&predicate, &workdir, &artifacts_dir, &label, &mut evidence);
        (verdict, evidence)
    });
    let interval = context
        .options
        .progress_interval
        .max(Duration::from_millis(100));
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
    let joined = loop {
        tokio::select! {
            joined = &mut task => break Some(joined),
            _ = ticker.tick() => {
                terminal.say(&format!("verifying (gate={number:02}, attempt={attempt})"));
            }
            () = interrupts.recv() => break None,
        }
    };
    let Some(joined) = joined else {
        let end = AttemptEnd {
            state: GateState::Unknown,
            class: Some(UnknownClass::UnknownTransient),
            reason: Some("interrupted during verification".into()),
            interrupted: true,
        };
        return (end, None);
    };
    let (verdict, evidence) = match joined {
        Ok(result) => result,
        Err(error) => (
            Verdict::Internal(format!("the verifier failed: {error}")),
            Vec::new(),
        ),
    };
    let (state, class, reason, result) = match verdict {
        Verdict::Pass => (GateState::Passed, None, None, "true"),
        Verdict::Fail => (
            GateState::Failed,
            None,
            Some(
                match evidence
                    .iter()
                    .find(|item| item.result == "false" && !item.predicate.starts_with("all("))
                {
                    Some(item) => format!("predicate is false: {}", item.predicate),
                    None => format!("{} does not hold", context.gate.id),
                },
            ),
            "false",
        ),
        Verdict::Unsupported(tokens) => (
            GateState::Unknown,
            Some(UnknownClass::UnknownVerifierLimit),
            Some(format!("predicate contains unsupported tokens: {tokens}")),
            "unsupported",
        ),
        Verdict::Transient(reason) => (
            GateState::Unknown,
            Some(UnknownClass::UnknownTransient),
            Some(reason),
            "transient",
        ),
        Verdict::Internal(reason) => (
            GateState::Unknown,
            Some(UnknownClass::UnknownInternal),
            Some(reason),
            "error",
        ),
    };
    let end = AttemptEnd {
        state,
        class,
        reason,
        interrupted: false,
    };
    (
        end,
        Some(Check {
            attempt,
            result,
            evidence,
        }),
    )
}

pub(super) fn verification_json(
    run_id: &str,
    spec: Option<&Spec>,
    checks: &[(String, Vec<Check>)],
) -> Json {
    let validations: Vec<Json> = spec
        .map(|spec| {
            spec.validations
                .iter()
                .map(|validation| {
                    let done = checks
                        .iter()
                        .find(|(id, _)| *id == validation.id)
                        .map(|(_, checks)| checks.as_slice())
                        .unwrap_or_default();
                    json!({
                        "id": validation.id,
                        "goal": validation.goal,
                        "gate": validation.gate,
                        "checks": done,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "schema": "dil.verification/v1",
        "run_id": run_id,
        "validations": validations,
    })
}

pub(super) fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}
