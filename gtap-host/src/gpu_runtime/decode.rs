//! Decoding a finished run: the control block, the per-warp statistics, the root's result and
//! the profile, copied back from device memory and turned into Rust values.
//!
//! Each read is a copy to the host followed by a pure decoding of the bytes; the decodings
//! are separate functions so that they are tested here on the CPU. The error words of the
//! control block become a [`GpuRunError`] in `GpuRuntime::device_error`, which also needs the
//! program's task names and the configuration.

use std::mem::size_of;
use std::sync::Arc;
use std::time::Duration;

use cudarc::driver::CudaStream;
use gtap_device::runtime::gpu::layout::{GpuRun, ProfileEvent, ProfileWarp, WarpStats};

use super::buffers::Buffers;
use super::error::driver;
use super::plan::RunPlan;
use super::{GpuRunError, GpuStats, Profile};

/// Reads back the control block the kernel updated.
pub(super) fn read_control(stream: &Arc<CudaStream>, b: &Buffers) -> Result<GpuRun, GpuRunError> {
    let run_bytes = stream
        .clone_dtoh(
            &b.run
                .as_ref()
                .expect("allocated")
                .slice(..size_of::<GpuRun>()),
        )
        .map_err(driver("cuMemcpyDtoH"))?;
    Ok(decode_control(&run_bytes))
}

/// The control block in `bytes` (at least a `GpuRun`'s worth).
fn decode_control(bytes: &[u8]) -> GpuRun {
    assert!(bytes.len() >= size_of::<GpuRun>(), "a whole control block");
    // SAFETY: the bytes of a `GpuRun` the kernel updated (as many as one has, checked just
    // above); any bit pattern is valid.
    unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast()) }
}

/// Reads back the statistics of `warps` warps, merged into one.
pub(super) fn read_stats(
    stream: &Arc<CudaStream>,
    b: &Buffers,
    warps: usize,
) -> Result<WarpStats, GpuRunError> {
    let stat_bytes = stream
        .clone_dtoh(
            &b.stats
                .as_ref()
                .expect("allocated")
                .slice(..warps * size_of::<WarpStats>()),
        )
        .map_err(driver("cuMemcpyDtoH"))?;
    Ok(merge_stats(&stat_bytes))
}

/// The [`WarpStats`] laid end to end in `bytes`, merged.
fn merge_stats(bytes: &[u8]) -> WarpStats {
    let mut total = WarpStats::default();
    for chunk in bytes.chunks_exact(size_of::<WarpStats>()) {
        // SAFETY: plain `repr(C)` integers.
        let s: WarpStats = unsafe { std::ptr::read_unaligned(chunk.as_ptr().cast()) };
        total.merge(&s);
    }
    total
}

/// Reads back the roots' results.
///
/// # Safety
///
/// The run completed without error: the root task returned, writing an `R`.
pub(super) unsafe fn read_results<R: Copy + 'static>(
    stream: &Arc<CudaStream>,
    b: &Buffers,
    roots: usize,
) -> Result<Vec<R>, GpuRunError> {
    let result_bytes = stream
        .clone_dtoh(
            &b.result
                .as_ref()
                .expect("allocated")
                .slice(..(roots * size_of::<R>()).max(1)),
        )
        .map_err(driver("cuMemcpyDtoH"))?;
    Ok((0..roots)
        .map(|i| {
            // SAFETY: root `i` wrote an `R` at `i * size_of::<R>()` when it returned (the run
            // completed without error, the caller's contract); `R: Copy`, and the device
            // compilation lays `R` out as the host does (checked for the records as a whole by
            // the kernel).
            unsafe {
                std::ptr::read_unaligned(result_bytes.as_ptr().add(i * size_of::<R>()).cast())
            }
        })
        .collect())
}

/// The parent of record `id` (the `parent` word of its header), read from the device.
pub(super) fn read_parent(
    stream: &Arc<CudaStream>,
    b: &Buffers,
    record_size: usize,
    id: u32,
) -> Result<u32, GpuRunError> {
    let at = id as usize * record_size + PARENT_OFFSET;
    let bytes = stream
        .clone_dtoh(&b.records.as_ref().expect("allocated").slice(at..at + 4))
        .map_err(driver("cuMemcpyDtoH"))?;
    Ok(u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

use gtap_device::runtime::record::PARENT_OFFSET;

/// The run's statistics: `total` over all warps, the launch shape of `plan`, the kernel's
/// time, the profile if there is one.
pub(super) fn gpu_stats(
    total: &WarpStats,
    plan: &RunPlan,
    kernel_ms: f32,
    profile: Option<Profile>,
) -> GpuStats {
    GpuStats {
        kernel_time: Duration::from_secs_f64(f64::from(kernel_ms) / 1e3),
        grid: plan.grid,
        block: plan.block,
        tasks: total.tasks,
        resumes: total.resumes,
        steals_attempted: total.steals_attempted,
        steals_won: total.steals_won,
        rounds: total.rounds,
        idle_rounds: total.idle_rounds,
        spawns_inlined: total.inlined,
        inline_cycles: total.inline_cycles,
        spawns_elided: total.spawns_elided,
        round_cycles: u64::from(total.round_cycles) / (plan.warps as u64).max(1),
        backoff: total.backoff,
        // The control block's, filled in by the caller.
        heavy_leaf_rounds: 0,
        peak_records_per_warp: total.records_touched,
        chunks_borrowed: total.chunks_borrowed,
        reserve_records: u64::from(plan.reserve_chunks)
            * u64::from(gtap_device::runtime::reserve::CHUNK_RECORDS),
        peak_queue: total.max_queue,
        profile,
    }
}

/// Reads back what the profiled kernel recorded for `warps` warps of `capacity` events.
pub(super) fn read_profile(
    stream: &Arc<CudaStream>,
    b: &Buffers,
    warps: usize,
    capacity: u32,
) -> Result<Profile, GpuRunError> {
    let header_bytes = stream
        .clone_dtoh(
            &b.profile_warps
                .as_ref()
                .expect("allocated")
                .slice(..warps * size_of::<ProfileWarp>()),
        )
        .map_err(driver("cuMemcpyDtoH"))?;
    let headers = parse_headers(&header_bytes);
    let cap = capacity as usize;
    let extent = Extent::of(&headers, cap);
    let size = size_of::<ProfileEvent>();
    let all = b.profile_events.as_ref().expect("allocated");
    let regions: Vec<Vec<ProfileEvent>> = if extent.total * 2 >= extent.span {
        // Mostly full regions: one copy of everything up to the last event.
        let events = if extent.span == 0 {
            Vec::new()
        } else {
            parse_events(
                &stream
                    .clone_dtoh(&all.slice(..extent.span * size))
                    .map_err(driver("cuMemcpyDtoH"))?,
            )
        };
        split_regions(&events, &extent.counts, cap)
    } else {
        // Mostly unused regions: one copy per warp of its events alone.
        let mut regions = Vec::with_capacity(warps);
        for (w, &n) in extent.counts.iter().enumerate() {
            regions.push(if n == 0 {
                Vec::new()
            } else {
                parse_events(
                    &stream
                        .clone_dtoh(&all.slice(w * cap * size..(w * cap + n) * size))
                        .map_err(driver("cuMemcpyDtoH"))?,
                )
            });
        }
        regions
    };
    Ok(Profile::from_raw(capacity, &headers, regions))
}

/// The [`ProfileWarp`] headers laid end to end in `bytes`.
fn parse_headers(bytes: &[u8]) -> Vec<ProfileWarp> {
    bytes
        .chunks_exact(size_of::<ProfileWarp>())
        // SAFETY: plain `repr(C)` integers.
        .map(|c| unsafe { std::ptr::read_unaligned(c.as_ptr().cast()) })
        .collect()
}

/// The [`ProfileEvent`]s laid end to end in `bytes`.
fn parse_events(bytes: &[u8]) -> Vec<ProfileEvent> {
    bytes
        .chunks_exact(size_of::<ProfileEvent>())
        // SAFETY: plain `repr(C)` integers; any bit pattern is valid.
        .map(|c| unsafe { std::ptr::read_unaligned(c.as_ptr().cast()) })
        .collect()
}

/// Where the recorded events of a profile buffer lie, from its per-warp headers.
#[derive(Debug, PartialEq, Eq)]
struct Extent {
    /// Each warp's events: the first `events` of its region (more cannot have been written).
    counts: Vec<usize>,
    /// All the warps' events.
    total: usize,
    /// The events from the start of the buffer to the last one written.
    span: usize,
}

impl Extent {
    /// The extent of the events `headers` say were written, in regions of `cap` events.
    fn of(headers: &[ProfileWarp], cap: usize) -> Extent {
        let counts: Vec<usize> = headers
            .iter()
            .map(|h| (h.events as usize).min(cap))
            .collect();
        let total: usize = counts.iter().sum();
        let span = counts
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |last| last * cap + counts[last]);
        Extent {
            counts,
            total,
            span,
        }
    }
}

/// Each warp's events out of the profile buffer's first events (`events`, at least up to the
/// last one written): warp `w`'s `counts[w]` events start at `w * cap`.
fn split_regions<T: Clone>(events: &[T], counts: &[usize], cap: usize) -> Vec<Vec<T>> {
    counts
        .iter()
        .enumerate()
        .map(|(w, &n)| {
            if n == 0 {
                Vec::new()
            } else {
                events[w * cap..w * cap + n].to_vec()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::mem::offset_of;

    use gtap_device::runtime::gpu::layout::error_code;

    use super::*;

    /// The bytes of `values`, laid end to end as the device lays out an array of them.
    fn bytes_of<T: Copy>(values: &[T]) -> Vec<u8> {
        let mut out = vec![0u8; std::mem::size_of_val(values)];
        // SAFETY: `out` has room for every byte of `values`; the types used here are
        // `repr(C)` integers without padding (checked by the callers' sizes).
        unsafe {
            std::ptr::copy_nonoverlapping(values.as_ptr().cast::<u8>(), out.as_mut_ptr(), out.len())
        };
        out
    }

    #[test]
    fn the_control_block_is_read_at_its_fields_offsets() {
        let mut bytes = vec![0u8; size_of::<GpuRun>()];
        let mut put = |offset: usize, value: u32| {
            bytes[offset..offset + 4].copy_from_slice(&value.to_ne_bytes());
        };
        put(offset_of!(GpuRun, error_code), error_code::QUEUE_FULL);
        put(offset_of!(GpuRun, error_a), 1024);
        put(offset_of!(GpuRun, error_b), 7);
        put(offset_of!(GpuRun, stop), 1);
        let run = decode_control(&bytes);
        assert_eq!(
            (run.error_code, run.error_a, run.error_b, run.stop),
            (error_code::QUEUE_FULL, 1024, 7, 1)
        );
        assert_eq!(run.records, 0);
    }

    #[test]
    #[should_panic(expected = "a whole control block")]
    fn a_short_control_block_is_refused() {
        decode_control(&[0u8; 8]);
    }

    #[test]
    fn warp_statistics_are_summed_and_their_peaks_kept() {
        let a = WarpStats {
            tasks: 10,
            resumes: 3,
            steals_attempted: 5,
            steals_won: 2,
            rounds: 40,
            idle_rounds: 7,
            inlined: 9,
            chunks_borrowed: 3,
            inline_cycles: 900,
            spawns_elided: 40,
            records_touched: 12,
            max_queue: 30,
            backoff: 2,
            round_cycles: 50,
        };
        let b = WarpStats {
            tasks: 1,
            resumes: 1,
            steals_attempted: 1,
            steals_won: 1,
            rounds: 1,
            idle_rounds: 1,
            inlined: 1,
            chunks_borrowed: 2,
            inline_cycles: 100,
            spawns_elided: 2,
            records_touched: 20,
            max_queue: 4,
            backoff: 5,
            round_cycles: 70,
        };
        let total = merge_stats(&bytes_of(&[a, b]));
        assert_eq!(
            (
                total.tasks,
                total.resumes,
                total.steals_attempted,
                total.steals_won,
                total.rounds,
                total.idle_rounds
            ),
            (11, 4, 6, 3, 41, 8)
        );
        assert_eq!((total.records_touched, total.max_queue), (20, 30));
        assert_eq!((total.inline_cycles, total.round_cycles), (1000, 120));
        assert_eq!(total.spawns_elided, 42);
        assert_eq!(total.backoff, 5);
        assert_eq!(total.chunks_borrowed, 5);
        let plan = crate::gpu_runtime::plan::RunPlan::new(
            &crate::gpu_runtime::GpuConfig::new()
                .block(64)
                .reserve_records(2048),
            &crate::props::tests::h100(),
            3,
            crate::gpu_runtime::plan::ProgramShape {
                name: "test",
                block: false,
                mixed: false,
                record_size: 64,
                record_align: 8,
                args_size: 4,
                result_size: 8,
            },
            || Ok(1024),
        )
        .unwrap();
        let stats = gpu_stats(&total, &plan, 2.5, None);
        assert_eq!((stats.grid, stats.block), (3, 64));
        assert_eq!(stats.chunks_borrowed, 5);
        assert_eq!(stats.reserve_records, 2048, "the reserve's records");
        assert_eq!(stats.kernel_time, Duration::from_micros(2500));
        assert_eq!((stats.tasks, stats.resumes, stats.rounds), (11, 4, 41));
        assert_eq!(
            (stats.steals_attempted, stats.steals_won, stats.idle_rounds),
            (6, 3, 8)
        );
        assert_eq!((stats.peak_records_per_warp, stats.peak_queue), (20, 30));
        assert!(stats.profile.is_none());
    }

    #[test]
    fn no_statistics_merge_to_zero() {
        let total = merge_stats(&[]);
        assert_eq!((total.tasks, total.rounds, total.max_queue), (0, 0, 0));
    }

    #[test]
    fn profile_records_round_trip_through_bytes() {
        let headers = [
            ProfileWarp::default(),
            ProfileWarp {
                events: 3,
                ..Default::default()
            },
        ];
        assert_eq!(parse_headers(&bytes_of(&headers)), headers);
        let events = [
            ProfileEvent::default(),
            ProfileEvent {
                lanes: 5,
                ..Default::default()
            },
        ];
        assert_eq!(parse_events(&bytes_of(&events)), events);
        // A trailing partial record is not an event.
        let mut short = bytes_of(&events);
        short.pop();
        assert_eq!(parse_events(&short), events[..1]);
    }

    #[test]
    fn the_extent_ends_at_the_last_event_written() {
        let header = |events| ProfileWarp {
            events,
            ..Default::default()
        };
        // Capacity 3: warp 1 claims 5 events (more than its region), warp 3 none.
        let e = Extent::of(&[header(2), header(5), header(1), header(0)], 3);
        assert_eq!(
            e,
            Extent {
                counts: vec![2, 3, 1, 0],
                total: 6,
                span: 7
            }
        );
        assert_eq!(Extent::of(&[header(0), header(0)], 3).span, 0);
        assert_eq!(Extent::of(&[], 3).total, 0);
    }

    #[test]
    fn profile_regions_are_split_by_count_and_empty_ones_past_the_end_are_empty() {
        // Capacity 3; warps 0..4 wrote 2, 0, 3 and 0 events: the copy ends at warp 2's last.
        let events: Vec<u32> = (0..9).collect();
        let regions = split_regions(&events, &[2, 0, 3, 0], 3);
        assert_eq!(regions, [vec![0, 1], vec![], vec![6, 7, 8], vec![]]);
    }
}
