//! Jobs listed across skills (`skills/-`): a caller sees only what it may
//! read — its tenant, and its own jobs unless it oversees them — whatever
//! filter, order or page token it sends; hostile values are refused.

use super::*;

const READ: &str = r#"check_order_status(order_id="ORD-1")"#;

async fn list(
    suite: &Suite,
    who: &str,
    request: pb::ListJobsRequest,
) -> Result<pb::ListJobsResponse, tonic::Status> {
    suite
        .jobs(who)
        .await
        .list_jobs(request)
        .await
        .map(tonic::Response::into_inner)
}

fn across() -> pb::ListJobsRequest {
    pb::ListJobsRequest {
        parent: "skills/-".into(),
        ..Default::default()
    }
}

/// Every job `who` lists across skills, page by page of `size`.
async fn all_pages(suite: &Suite, who: &str, size: i32) -> Vec<String> {
    let mut names = Vec::new();
    let mut token = String::new();
    for _ in 0..100 {
        let page = list(
            suite,
            who,
            pb::ListJobsRequest {
                page_size: size,
                page_token: token,
                ..across()
            },
        )
        .await
        .unwrap();
        names.extend(page.jobs.into_iter().map(|job| job.name));
        if page.next_page_token.is_empty() {
            return names;
        }
        token = page.next_page_token;
    }
    panic!("the pages never ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_across_skills_shows_only_what_the_caller_may_read() {
    let suite = Suite::start("sec-list-across");
    let a1 = suite.job("alice", READ).await.name;
    let b1 = suite.job("bob", READ).await.name;
    let a2 = suite.job("alice", REFUND_900).await.name;
    let e1 = suite.job("eve", READ).await.name;

    // Alice: her own, newest first; never Bob's, never another tenant's.
    assert_eq!(
        all_pages(&suite, "alice", 50).await,
        [a2.clone(), a1.clone()]
    );
    // An operator of acme: all of acme's, one page at a time, none twice.
    assert_eq!(
        all_pages(&suite, "olga", 1).await,
        [a2.clone(), b1.clone(), a1.clone()]
    );
    // Globex's admin and operator: globex's only.
    assert_eq!(
        all_pages(&suite, "eve", 50).await,
        std::slice::from_ref(&e1)
    );
    assert_eq!(
        all_pages(&suite, "g-operator", 50).await,
        std::slice::from_ref(&e1)
    );

    // Filters narrow, never widen.
    let by_owner = list(
        &suite,
        "olga",
        pb::ListJobsRequest {
            owner: "bob".into(),
            ..across()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        by_owner
            .jobs
            .iter()
            .map(|job| &job.name)
            .collect::<Vec<_>>(),
        [&b1]
    );
    assert_eq!(by_owner.jobs[0].owner, "bob");
    let by_alice_for_bob = list(
        &suite,
        "alice",
        pb::ListJobsRequest {
            owner: "bob".into(),
            ..across()
        },
    )
    .await
    .unwrap();
    assert!(
        by_alice_for_bob.jobs.is_empty(),
        "asking for another's jobs shows none"
    );
    let waiting = list(
        &suite,
        "olga",
        pb::ListJobsRequest {
            outcome_class: pb::OutcomeClass::ApprovalRequired as i32,
            status: pb::JobStatus::Paused as i32,
            ..across()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        waiting.jobs.iter().map(|job| &job.name).collect::<Vec<_>>(),
        [&a2]
    );
    let future = list(
        &suite,
        "olga",
        pb::ListJobsRequest {
            create_time_after: Some(prost_types::Timestamp {
                seconds: 4_000_000_000,
                nanos: 0,
            }),
            ..across()
        },
    )
    .await
    .unwrap();
    assert!(future.jobs.is_empty() && future.next_page_token.is_empty());

    // A token forged to start at another tenant's job is not a token: the
    // ones this list issues are sealed for their caller.
    let eve_id = e1.rsplit('/').next().unwrap();
    let forged = hex::encode(format!("9999999999999/cs-tier-1/{eve_id}"));
    let refused = list(
        &suite,
        "alice",
        pb::ListJobsRequest {
            page_token: forged,
            ..across()
        },
    )
    .await;
    assert_eq!(
        refused.map(|_| ()).unwrap_err().code(),
        Code::InvalidArgument
    );

    // Hostile values: INVALID_ARGUMENT naming the field, nothing else.
    for (field, request) in [
        (
            "page_token",
            pb::ListJobsRequest {
                page_token: "not-a-token".into(),
                ..across()
            },
        ),
        (
            "page_token",
            pb::ListJobsRequest {
                page_token: "ab".repeat(5000),
                ..across()
            },
        ),
        (
            "order_by",
            pb::ListJobsRequest {
                order_by: "goal".into(),
                ..across()
            },
        ),
        (
            "order_by",
            pb::ListJobsRequest {
                order_by: "create_time".into(),
                ..across()
            },
        ),
        (
            "outcome_class",
            pb::ListJobsRequest {
                outcome_class: 999,
                ..across()
            },
        ),
        (
            "owner",
            pb::ListJobsRequest {
                owner: "x".repeat(300),
                ..across()
            },
        ),
        (
            "create_time_after",
            pb::ListJobsRequest {
                create_time_after: Some(prost_types::Timestamp {
                    seconds: -5,
                    nanos: 0,
                }),
                ..across()
            },
        ),
        (
            "parent",
            pb::ListJobsRequest {
                parent: "skills/-/x".into(),
                ..Default::default()
            },
        ),
    ] {
        let status = list(&suite, "olga", request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{field}: {status:?}");
        assert!(
            status.message().contains(field),
            "{field}: {}",
            status.message()
        );
    }
    // One skill, newest first on request.
    let newest = list(
        &suite,
        "olga",
        pb::ListJobsRequest {
            parent: "skills/cs-tier-1".into(),
            order_by: "create_time desc".into(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        newest.jobs.iter().map(|job| &job.name).collect::<Vec<_>>(),
        [&a2, &b1, &a1]
    );
    suite.alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newest_first_page_token_is_sealed_for_its_caller() {
    let suite = Suite::start("sec-list-sealed");
    for _ in 0..3 {
        suite.job("alice", READ).await;
    }
    let other = suite.job("g-user", READ).await;
    let first = list(
        &suite,
        "alice",
        pb::ListJobsRequest {
            page_size: 1,
            ..across()
        },
    )
    .await
    .unwrap();
    let token = first.next_page_token.clone();
    assert!(!token.is_empty());
    // Noise: it names no job, no skill, no time.
    let shown = &first.jobs[0].job_id;
    assert!(!token.contains(shown.as_str()) && !token.contains("cs-tier-1"));
    // Alice's next page comes from it; nobody else's does.
    let second = list(
        &suite,
        "alice",
        pb::ListJobsRequest {
            page_size: 1,
            page_token: token.clone(),
            ..across()
        },
    )
    .await
    .unwrap();
    assert_eq!(second.jobs.len(), 1);
    for who in ["bob", "olga", "eve"] {
        let stolen = list(
            &suite,
            who,
            pb::ListJobsRequest {
                page_size: 1,
                page_token: token.clone(),
                ..across()
            },
        )
        .await;
        assert_eq!(
            stolen.map(|_| ()).unwrap_err().code(),
            Code::InvalidArgument,
            "{who}"
        );
    }
    // A plain cursor naming another tenant's job, as the old tokens were.
    let forged: String = format!("99999999999999/cs-tier-1/{}", other.job_id)
        .bytes()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let refused = list(
        &suite,
        "alice",
        pb::ListJobsRequest {
            page_size: 5,
            page_token: forged,
            ..across()
        },
    )
    .await;
    assert_eq!(
        refused.map(|_| ()).unwrap_err().code(),
        Code::InvalidArgument
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skill_and_template_page_tokens_are_sealed_for_their_list() {
    let suite = Suite::start("sec-list-skills");
    for name in ["skills/first", "skills/second"] {
        suite
            .registry("root")
            .await
            .put_skill(pb::PutSkillRequest {
                name: name.into(),
                source: "problem: {statement: A skill}\nintents: {supported: [{id: hello, examples: [say hello]}]}\ntools: []\n".into(),
                ..Default::default()
            })
            .await
            .unwrap();
    }
    let mut registry = suite.registry("alice").await;
    let first = registry
        .list_skills(pb::ListSkillsRequest {
            page_size: 1,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let token = first.next_page_token.clone();
    assert!(token.starts_with('s') && token.len() > 40, "{token}");
    // The next page follows from it, for the same tenant's list.
    let second = registry
        .list_skills(pb::ListSkillsRequest {
            page_size: 1,
            page_token: token.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_ne!(first.skills[0].name, second.skills[0].name);
    // Another tenant's list, the templates' list, an offset: none is a way in.
    let elsewhere = suite
        .registry("g-user")
        .await
        .list_skills(pb::ListSkillsRequest {
            page_size: 1,
            page_token: token.clone(),
        })
        .await;
    assert_eq!(code(elsewhere), Code::InvalidArgument);
    let templates = registry
        .list_templates(pb::ListTemplatesRequest {
            page_size: 1,
            page_token: token,
        })
        .await;
    assert_eq!(code(templates), Code::InvalidArgument);
    let offset = registry
        .list_skills(pb::ListSkillsRequest {
            page_size: 1,
            page_token: "o1".into(),
        })
        .await;
    assert_eq!(code(offset), Code::InvalidArgument);
}
