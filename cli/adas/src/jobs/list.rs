//! `adas job list`: the filters as typed values (so a shell completes them)
//! and the list printed as each output format says.

use adas_proto::pb;

use super::{
    Client, Failure, Format, connect, enum_name, job_row, out, print_table, print_value,
    status_text, to_json,
};

/// A job status on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusArg {
    Queued,
    Running,
    Paused,
    Completed,
    Failed,
    Cancelled,
}

impl StatusArg {
    pub fn wire(self) -> pb::JobStatus {
        match self {
            Self::Queued => pb::JobStatus::Queued,
            Self::Running => pb::JobStatus::Running,
            Self::Paused => pb::JobStatus::Paused,
            Self::Completed => pb::JobStatus::Completed,
            Self::Failed => pb::JobStatus::Failed,
            Self::Cancelled => pb::JobStatus::Cancelled,
        }
    }
}

/// A job outcome on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutcomeArg {
    Success,
    UserActionRequired,
    ApprovalRequired,
    Escalated,
    PolicyDenied,
    ToolFailed,
    OutOfDomain,
    EngineBudgetExhausted,
    InternalError,
    Cancelled,
    Expired,
}

impl OutcomeArg {
    pub fn wire(self) -> pb::OutcomeClass {
        match self {
            Self::Success => pb::OutcomeClass::Success,
            Self::UserActionRequired => pb::OutcomeClass::UserActionRequired,
            Self::ApprovalRequired => pb::OutcomeClass::ApprovalRequired,
            Self::Escalated => pb::OutcomeClass::Escalated,
            Self::PolicyDenied => pb::OutcomeClass::PolicyDenied,
            Self::ToolFailed => pb::OutcomeClass::ToolFailed,
            Self::OutOfDomain => pb::OutcomeClass::OutOfDomain,
            Self::EngineBudgetExhausted => pb::OutcomeClass::EngineBudgetExhausted,
            Self::InternalError => pb::OutcomeClass::InternalError,
            Self::Cancelled => pb::OutcomeClass::Cancelled,
            Self::Expired => pb::OutcomeClass::Expired,
        }
    }
}

/// `--since`: a span back from now (`90s`, `30m`, `24h`, `7d`) or an RFC
/// 3339 time.
pub fn since(text: &str) -> Result<prost_types::Timestamp, String> {
    let seconds = if let Ok(stamp) = text.parse::<jiff::Timestamp>() {
        stamp.as_second()
    } else {
        let split = text
            .find(|c: char| !c.is_ascii_digit())
            .ok_or_else(|| format!("`{text}` needs a unit: s, m, h or d (or an RFC 3339 time)"))?;
        let (number, unit) = text.split_at(split);
        let number: i64 = number
            .parse()
            .map_err(|_| format!("`{text}` is not a span like 30m or 24h"))?;
        let unit = match unit {
            "s" => 1,
            "m" => 60,
            "h" => 3_600,
            "d" => 86_400,
            _ => return Err(format!("`{unit}` is not a unit: use s, m, h or d")),
        };
        jiff::Timestamp::now().as_second() - number.saturating_mul(unit)
    };
    Ok(prost_types::Timestamp {
        seconds: seconds.max(0),
        nanos: 0,
    })
}

/// Prints `jobs`: a line each or a table (and, on stderr, how to go on when
/// more remain), or the proto3 JSON mapping of a ListJobsResponse.
pub fn print_jobs(jobs: &[pb::Job], next_page_token: &str, output: Format) -> Result<(), Failure> {
    match output {
        Format::Table => {
            let rows: Vec<Vec<String>> = jobs.iter().map(job_row).collect();
            print_table(&["job", "status", "outcome", "goal"], &rows);
        }
        Format::Text => {
            for job in jobs {
                out(&format!(
                    "{}\t{}\t{}\t{}",
                    job.name,
                    enum_name(pb::JobStatus::try_from(job.status).map(|s| s.as_str_name())),
                    enum_name(
                        pb::OutcomeClass::try_from(job.outcome_class).map(|o| o.as_str_name())
                    ),
                    job.goal
                ));
            }
        }
        Format::Json | Format::Yaml => {
            // ListJobsResponse as proto3 JSON: the jobs, and the token when
            // more remain.
            let listed = pb::ListJobsResponse {
                jobs: jobs.to_vec(),
                next_page_token: next_page_token.to_owned(),
            };
            print_value(&to_json(&listed, "adas.v1.ListJobsResponse")?, output);
            return Ok(());
        }
    }
    if !next_page_token.is_empty() {
        eprintln!(
            "{} shown; more remain: the same command with --page-token {next_page_token}",
            jobs.len()
        );
    }
    Ok(())
}

/// `adas job waiting`: every job of `slag` waiting for a person, with why.
pub(super) async fn waiting(client: &Client, slag: &str, output: Format) -> Result<(), Failure> {
    let mut dal = connect(client).await?.dal;
    let mut page_token = String::new();
    let (mut rows, mut jobs) = (Vec::new(), Vec::new());
    loop {
        let page = dal
            .list_waiting(pb::ListWaitingRequest {
                parent: format!("skills/{slag}"),
                page_size: 1000,
                page_token,
            })
            .await
            .map_err(status_text)?
            .into_inner();
        for job in &page.jobs {
            let waiting = job.waiting.clone().unwrap_or_default();
            match output {
                Format::Text => out(&format!(
                    "{}\t{}\t{}",
                    job.name, waiting.reason_code, waiting.prompt_message
                )),
                Format::Table => rows.push(vec![
                    job.name.clone(),
                    waiting.reason_code,
                    waiting.prompt_message,
                ]),
                _ => jobs.push(to_json(job, "adas.v1.Job")?),
            }
        }
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    match output {
        Format::Table => print_table(&["job", "reason", "prompt"], &rows),
        Format::Json | Format::Yaml => print_value(&serde_json::Value::Array(jobs), output),
        Format::Text => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::since;

    #[test]
    fn since_reads_spans_and_times() {
        let now = jiff::Timestamp::now().as_second();
        let day = since("24h").unwrap().seconds;
        assert!((now - 86_400 - day).abs() <= 2);
        assert_eq!(
            since("2026-01-02T03:04:05Z").unwrap().seconds,
            1_767_323_045
        );
        assert!(since("24").unwrap_err().contains("unit"));
        assert!(since("3w").unwrap_err().contains("unit"));
    }
}
