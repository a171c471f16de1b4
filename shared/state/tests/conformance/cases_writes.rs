//! Cases: what a job's write relies on (the skill's policy mark) and what
//! the park sweep does to a waiting job.

use super::*;

/// A job that waited is packed by the park sweep (on a store that packs)
/// and reads the same after: its record, its events with their ids, its
/// place in the waiting index; its next write takes it out whole.
pub async fn a_packed_job_reads_the_same(store: &dyn StateStore, packs: bool) {
    create(store, "pk", "j", b"queued", 10, Some(b"created"))
        .await
        .unwrap();
    let pause = JobWrite {
        policy: None,
        expected: 1,
        data: Some(b"paused, asking for the order"),
        status: "paused",
        waiting: WaitingChange::Set { since_ms: 20 },
        events: &[b"asked"],
        enqueue: None,
    };
    store.write_job("pk", "j", pause).await.unwrap();
    let read = async || {
        let job = store.get_job("pk", "j").await.unwrap().unwrap();
        let events: Vec<(String, Vec<u8>)> = store
            .read_events("pk", "j", None, 10)
            .await
            .unwrap()
            .into_iter()
            .map(|event| (event.id, event.data))
            .collect();
        let waiting = store.list_waiting("pk", page(0, 10)).await.unwrap().items;
        (job.version, job.data, events, waiting.len())
    };
    let before = read().await;
    // Not yet waited past the cutoff: nothing packed.
    assert_eq!(store.park_waiting(19, 100, true).await.unwrap(), 0);
    assert_eq!(
        store.park_waiting(20, 100, true).await.unwrap(),
        usize::from(packs)
    );
    assert_eq!(read().await, before);
    let answered = JobWrite {
        policy: None,
        expected: 2,
        data: Some(b"answered"),
        status: "queued",
        waiting: WaitingChange::Clear,
        events: &[b"resumed"],
        enqueue: None,
    };
    store.write_job("pk", "j", answered).await.unwrap();
    let (_, data, events, waiting) = read().await;
    assert_eq!(data, b"answered");
    assert_eq!(waiting, 0);
    assert_eq!(
        events.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(),
        ["1", "2", "3"]
    );
    assert_eq!(store.park_waiting(u64::MAX, 100, true).await.unwrap(), 0);
}

/// A write that relies on the skill's policy as a process held it holds only
/// while the skill's mark names that version; one that relies on a read
/// holds whatever the mark says and names its version on a missing mark.
pub async fn a_write_relies_on_the_policy_mark(store: &dyn StateStore) {
    let write = |expected, tenant, etag, seen| JobWrite {
        policy: Some(PolicyCheck { tenant, etag, seen }),
        expected,
        data: None,
        status: "running",
        waiting: WaitingChange::Keep,
        events: &[],
        enqueue: None,
    };
    let changed = |written: adas_state::Result<Version>| matches!(written, Err(StateError::PolicyChanged { slag }) if slag == "cs");
    create(store, "cs", "j1", b"{}", 1, None).await.unwrap();
    // No mark yet: a held version is not taken for current.
    assert!(changed(
        store
            .write_job("cs", "j1", write(1, "acme", "e1", PolicySeen::Held))
            .await
    ));
    // A read names its version on a missing mark, which a held one then meets.
    let version = store
        .write_job("cs", "j1", write(1, "acme", "e1", PolicySeen::Read))
        .await
        .unwrap();
    let version = store
        .write_job("cs", "j1", write(version, "acme", "e1", PolicySeen::Held))
        .await
        .unwrap();
    // Marks are per tenant: another tenant's skill of that slag has none.
    assert!(changed(
        store
            .write_job("cs", "j1", write(version, "other", "e1", PolicySeen::Held))
            .await
    ));
    // A writer of the skill marks it changing, then current.
    store
        .mark_policy("acme", "cs", PolicyMark::Changing)
        .await
        .unwrap();
    assert!(changed(
        store
            .write_job("cs", "j1", write(version, "acme", "e1", PolicySeen::Held))
            .await
    ));
    // A read is as fresh as the check: it holds on a changing mark and leaves it.
    let version = store
        .write_job("cs", "j1", write(version, "acme", "e1", PolicySeen::Read))
        .await
        .unwrap();
    assert!(changed(
        store
            .write_job("cs", "j1", write(version, "acme", "e1", PolicySeen::Held))
            .await
    ));
    store
        .mark_policy("acme", "cs", PolicyMark::Current("e2"))
        .await
        .unwrap();
    assert!(changed(
        store
            .write_job("cs", "j1", write(version, "acme", "e1", PolicySeen::Held))
            .await
    ));
    // A read never moves a mark that is there.
    let version = store
        .write_job("cs", "j1", write(version, "acme", "e1", PolicySeen::Read))
        .await
        .unwrap();
    let version = store
        .write_job("cs", "j1", write(version, "acme", "e2", PolicySeen::Held))
        .await
        .unwrap();
    // A refused write changed nothing: the version moved only with the five
    // that held.
    assert_eq!(version, 6);
    let record = store.get_job("cs", "j1").await.unwrap().unwrap();
    assert_eq!(record.version, 6);
    // A version conflict is told before the policy.
    assert!(matches!(
        store
            .write_job("cs", "j1", write(1, "acme", "e1", PolicySeen::Held))
            .await,
        Err(StateError::VersionConflict { .. })
    ));
    assert!(matches!(
        store
            .mark_policy("acme", "bad key", PolicyMark::Changing)
            .await,
        Err(StateError::InvalidKey { .. })
    ));
}
