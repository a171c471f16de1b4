//! A paused job, parked: while it waits for a person, its record and its
//! event log are one compressed value in the job's key, and the log's list is
//! gone. A waiting job is read rarely and may wait for days; kept as a record
//! plus a list it took about 2.6 KB of Redis (two keys, the events repeating
//! what the record holds), packed about 0.9 KB.
//!
//! Redis' Lua has no compression, so packing and unpacking happen here, in the
//! client: the write that pauses a job returns its log, and a second script
//! parks it if nothing changed since; the first write after that sends the log
//! back, which the script restores before it appends (`redis_store`).
//!
//! The packed form: a format byte, then a raw deflate stream, compressed
//! against a preset dictionary of the platform's own event and record
//! vocabulary (never a skill's strings), of: the number of events (varint),
//! each event as a varint length and its bytes, then the record. A format, once
//! written, is a stored job's: a new dictionary is a new format byte, and the
//! old one stays readable. Jobs are packed in the newest format.

use std::cell::RefCell;

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use crate::{Result, StateError};

/// The format byte of [`DICTIONARY_1`].
const FORMAT_1: u8 = 1;

/// The format byte of [`DICTIONARY_2`], the one jobs are packed in.
const FORMAT_2: u8 = 2;

/// Words a job's events and record repeat, whatever the skill: event
/// messages, detail keys, gate verdicts, reason codes. Deflate finds a match
/// within the 32 KiB before it, so this text costs nothing to store and makes
/// the first use of each word a back-reference. The file is never edited (the
/// test harness reads it too, to unpack what it inspects): a new dictionary
/// is a new file and a new format byte.
const DICTIONARY_1: &[u8] = include_bytes!("park-dictionary-1.txt");

/// [`DICTIONARY_1`], then the shape of three parked jobs as this version
/// stores them — their events and records with every JSON string value,
/// identifier, digest, tool name, input name, goal, prompt and output taken
/// out: the protobuf tags and lengths, the detail keys and the platform's
/// own words in the order a job writes them. About a sixth off a parked job
/// of a skill it was not made from (92–118 B), a quarter off one whose tools
/// have the same shape. Never edited, like the first (its SHA-256 is pinned
/// by a test).
const DICTIONARY_2: &[u8] = include_bytes!("park-dictionary-2.bin");

/// The dictionary a format byte names.
fn dictionary(format: u8) -> Option<&'static [u8]> {
    match format {
        FORMAT_1 => Some(DICTIONARY_1),
        FORMAT_2 => Some(DICTIONARY_2),
        _ => None,
    }
}

/// The most a packed value may unpack to: far above any record and log a
/// job keeps (tool outputs are referenced, not copied), and a bound on what
/// a corrupt or foreign value can make this process allocate.
const MAX_UNPACKED: usize = 64 << 20;

/// A parked job's contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parked {
    /// The record.
    pub record: Vec<u8>,
    /// The job's events, oldest first (an event's id is its position, from 1).
    pub events: Vec<Vec<u8>>,
}

/// Packs a job's record and events.
pub(crate) fn pack(record: &[u8], events: &[Vec<u8>]) -> Vec<u8> {
    deflate(&plain(record, events), FORMAT_2)
}

/// What is deflated: the event count, each event length-prefixed, the record.
fn plain(record: &[u8], events: &[Vec<u8>]) -> Vec<u8> {
    let mut plain = Vec::with_capacity(record.len() + events.iter().map(Vec::len).sum::<usize>());
    put_varint(&mut plain, events.len());
    for event in events {
        put_varint(&mut plain, event.len());
        plain.extend_from_slice(event);
    }
    plain.extend_from_slice(record);
    plain
}

/// The format byte, then `plain` deflated against its dictionary.
fn deflate(plain: &[u8], format: u8) -> Vec<u8> {
    let dictionary = dictionary(format).expect("a known format");
    thread_local! {
        // A deflate state is about 300 KB, allocated and cleared on creation:
        // more than packing a job costs. Each thread keeps one and resets it.
        static COMPRESS: RefCell<Compress> = RefCell::new(Compress::new(Compression::default(), false));
    }
    COMPRESS.with_borrow_mut(|compress| {
        compress.reset();
        compress
            .set_dictionary(dictionary)
            .expect("a dictionary is accepted right after a reset");
        // Deflate's worst case is a few bytes per 16 KiB block over the input.
        let mut packed = Vec::with_capacity(plain.len() + plain.len() / 1000 + 64);
        packed.push(format);
        loop {
            let consumed = compress.total_in() as usize;
            let status = compress
                .compress_vec(&plain[consumed..], &mut packed, FlushCompress::Finish)
                .expect("deflate into a growing buffer does not fail");
            if status == Status::StreamEnd {
                return packed;
            }
            packed.reserve(packed.capacity().max(64));
        }
    })
}

/// Unpacks what [`pack`] made; a value that is not one is an error, never a panic.
pub(crate) fn unpack(packed: &[u8]) -> Result<Parked> {
    let corrupt = |why: &str| StateError::UnexpectedReply(format!("a parked job {why}"));
    let (&format, deflated) = packed.split_first().ok_or_else(|| corrupt("is empty"))?;
    let dictionary = dictionary(format).ok_or_else(|| corrupt("has an unknown format"))?;
    thread_local! {
        // As for deflate: an inflate state (its 32 KiB window) is kept per thread.
        static DECOMPRESS: RefCell<Decompress> = RefCell::new(Decompress::new(false));
    }
    DECOMPRESS.with_borrow_mut(|decompress| inflate(decompress, dictionary, deflated))
}

/// `deflated` inflated against `dictionary`, then split into its parts.
fn inflate(decompress: &mut Decompress, dictionary: &[u8], deflated: &[u8]) -> Result<Parked> {
    let corrupt = |why: &str| StateError::UnexpectedReply(format!("a parked job {why}"));
    decompress.reset(false);
    decompress
        .set_dictionary(dictionary)
        .map_err(|_| corrupt("refused its dictionary"))?;
    let mut plain = Vec::with_capacity(deflated.len() * 4);
    loop {
        let consumed = decompress.total_in() as usize;
        let status = decompress
            .decompress_vec(&deflated[consumed..], &mut plain, FlushDecompress::Finish)
            .map_err(|_| corrupt("is not valid deflate"))?;
        if status == Status::StreamEnd {
            break;
        }
        if plain.len() < plain.capacity() {
            // Room was left and the stream did not end: the input ran out.
            return Err(corrupt("is cut short"));
        }
        if plain.len() >= MAX_UNPACKED {
            return Err(corrupt("unpacks past its bound"));
        }
        plain.reserve(plain.len().clamp(256, MAX_UNPACKED - plain.len()));
    }
    let mut rest = plain.as_slice();
    let count = take_varint(&mut rest).ok_or_else(|| corrupt("has no event count"))?;
    let mut events = Vec::with_capacity(count.min(rest.len()));
    for _ in 0..count {
        let len = take_varint(&mut rest)
            .filter(|&len| len <= rest.len())
            .ok_or_else(|| corrupt("has an event cut short"))?;
        let (event, tail) = rest.split_at(len);
        events.push(event.to_vec());
        rest = tail;
    }
    Ok(Parked {
        record: rest.to_vec(),
        events,
    })
}

fn put_varint(out: &mut Vec<u8>, mut value: usize) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn take_varint(input: &mut &[u8]) -> Option<usize> {
    let mut value: usize = 0;
    for (at, &byte) in input.iter().enumerate().take(10) {
        value |= usize::from(byte & 0x7f).checked_shl(7 * at as u32)?;
        if byte & 0x80 == 0 {
            *input = &input[at + 1..];
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_and_its_events_come_back_as_they_went() {
        let record = b"\x0a\x15j01a20efd9bc35cf166b9 the record".to_vec();
        let events = vec![
            b"job created".to_vec(),
            Vec::new(),
            vec![0x80; 300],
            br#"{"reason_code":"MISSING_REQUIRED_INPUT","requested_fields":["amount"]}"#.to_vec(),
        ];
        let packed = pack(&record, &events);
        assert_eq!(packed[0], FORMAT_2);
        assert_eq!(unpack(&packed).unwrap(), Parked { record, events });
        let empty = pack(b"", &[]);
        assert_eq!(unpack(&empty).unwrap().events.len(), 0);
    }

    #[test]
    fn the_dictionary_makes_the_platform_s_words_cheap() {
        let event = br#"{"reason_code":"MISSING_REQUIRED_INPUT","requested_fields":["amount"],"correlation_id":"c01a20efd9c26316f0dda"}"#;
        let packed = pack(b"", &[event.to_vec()]);
        assert!(packed.len() < event.len() / 2, "{} bytes", packed.len());
    }

    #[test]
    fn a_large_value_round_trips() {
        let record: Vec<u8> = (0..200_000u32).flat_map(u32::to_le_bytes).collect();
        let packed = pack(&record, std::slice::from_ref(&record));
        let parked = unpack(&packed).unwrap();
        assert_eq!(parked.record, record);
        assert_eq!(parked.events, vec![record]);
    }

    #[test]
    fn a_foreign_or_damaged_value_is_an_error() {
        let packed = pack(b"record", &[b"event".to_vec()]);
        for bad in [
            &[][..],
            &[9, 1, 2, 3][..],
            &packed[..packed.len() / 2],
            &[FORMAT_1, 0xff, 0xff, 0xff][..],
            &[FORMAT_2, 0xff, 0xff, 0xff][..],
            &[3, 0x03, 0x00][..],
        ] {
            assert!(unpack(bad).is_err(), "{bad:?}");
        }
        // An event longer than what follows it, and a count with no events.
        let mut plain = Vec::new();
        put_varint(&mut plain, 1);
        put_varint(&mut plain, 1000);
        plain.extend_from_slice(b"short");
        assert!(unpack(&deflate(&plain, FORMAT_2)).is_err());
        assert!(unpack(&deflate(&[0x85, 0x01], FORMAT_2)).is_err());
        assert!(unpack(&deflate(&[0xff; 11], FORMAT_2)).is_err());
    }

    #[test]
    fn a_thread_s_kept_state_carries_nothing_from_one_value_to_the_next() {
        let (record, events) = (b"the record".to_vec(), vec![b"an event".to_vec()]);
        let first = pack(&record, &events);
        // A value cut short, then a damaged one, leave the thread's inflate
        // state mid-stream and in error; the next value is read from scratch.
        assert!(unpack(&first[..first.len() / 2]).is_err());
        assert!(unpack(&[FORMAT_2, 0xff, 0xff, 0xff]).is_err());
        let other = pack(b"another record", &[]);
        assert_eq!(
            pack(&record, &events),
            first,
            "a packing depends on its input only"
        );
        assert_eq!(unpack(&first).unwrap(), Parked { record, events });
        assert_eq!(unpack(&other).unwrap().record, b"another record");
    }

    #[test]
    fn a_bomb_stops_at_the_bound() {
        // 80 MiB of zeros deflate to about 80 KiB.
        let packed = deflate(&vec![0; 80 << 20], FORMAT_2);
        assert!(packed.len() < 200_000, "{}", packed.len());
        assert!(unpack(&packed).is_err());
    }

    #[test]
    fn a_job_packed_in_the_first_format_is_still_read() {
        // What a version before the second dictionary wrote.
        let record = b"\x0a\x2dj01a22d9e6c86b the record".to_vec();
        let events = vec![br#"{"reason_code":"MISSING_REQUIRED_INPUT"}"#.to_vec()];
        let old = deflate(&plain(&record, &events), FORMAT_1);
        assert_eq!(old[0], FORMAT_1);
        assert_eq!(unpack(&old).unwrap(), Parked { record, events });
    }

    #[test]
    fn the_dictionaries_are_never_edited() {
        use sha2::Digest as _;
        let digest = |bytes: &[u8]| -> String {
            sha2::Sha256::digest(bytes)
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect()
        };
        // A changed dictionary would make every job parked with it unreadable.
        assert_eq!(
            digest(DICTIONARY_2),
            "7eb1272c93961d852243442c32ec7a312b6444b9112ef398eb3205277c2ec00b"
        );
        assert!(DICTIONARY_2.starts_with(DICTIONARY_1));
    }

    #[test]
    fn the_second_dictionary_packs_a_parked_job_smaller_than_the_first() {
        // A job of a skill the dictionary was not made from, as parked:
        // its `paused` event's detail and a record's worth of its shape.
        let events = vec![
            b"\x08\x01\x10\x01\"\x0bjob created0\xb8\xca\xce\xee\xa248\x01".to_vec(),
            br#"{"program":"restart_service(service=\"payments\")","intent":"intent_restart","workflow":"Restart","decider":{"by":"deterministic","calls":0,"input_tokens":0,"output_tokens":0,"cost_usd":0.0,"fallback_reason":null}}"#.to_vec(),
            br#"{"reason_code":"MISSING_REQUIRED_INPUT","requested_fields":["reason"],"correlation_id":"c01a22dd46e3a9f2"}"#.to_vec(),
        ];
        let record =
            b"\n-j01a22dd46e1e2ef816\x12\rdevops-tier-1\x1a\x13Restart the service \x03(\x02"
                .to_vec();
        let plain = plain(&record, &events);
        let (first, second) = (deflate(&plain, FORMAT_1), deflate(&plain, FORMAT_2));
        assert!(
            second.len() < first.len(),
            "{} against {}",
            second.len(),
            first.len()
        );
    }
}
