//! The any-update scatter's steps (`shaders/scatter.wgsl`): its entry point by row shape, and
//! the row kernels that copy rows as they scatter (out of place) or scatter rows in place.

use super::index_map::{EntriesByRowShape, Grouping, IndexMap};
use crate::kernels::params::Parameters;
use crate::kernels::{Entry, Kernel, RowKernel};
use crate::lowering::{DeviceFacts, Grid, Placement, Step};

/// The any-update scatter's entry point by row shape: whole words where rows that do not
/// fill words land on contiguous output rows (`scatter_spans`), else by the rows' width.
pub(super) fn scatter_grouping(map: &IndexMap, device: &DeviceFacts) -> Grouping {
    let words_fit = map.element_bytes < 4 && map.rows_fill_words();
    let entries = EntriesByRowShape {
        words: Entry::ScatterWords,
        rows: Entry::ScatterRows,
        blocks: Entry::ScatterBlocks,
        single: Entry::Scatter,
    };
    let inner = map.sizes.len() - 1;
    let spans = (!words_fit && map.indexed_strides[inner] == 1)
        .then(|| map.spans(Entry::ScatterSpans, device))
        .flatten();
    spans.unwrap_or_else(|| map.grouping(entries, words_fit, device))
}

/// Where the any-update scatter takes a workgroup a row (`Strategy::AnyUpdate` in `scatter_lowering`).
pub(super) struct RowSteps {
    pub copy_rows: Option<(u32, u32)>,
    pub rows_in_place: Option<(u32, u32)>,
}

/// The any-update scatter: one pass; where it copies rows as it scatters (out of place) or
/// scatters rows in place, a workgroup a row, else the plain pass.
pub(super) fn any_update_steps(
    steps: &mut Vec<Step>,
    map: &IndexMap,
    kernel: Kernel,
    grouping: Grouping,
    rows: RowSteps,
    device: &DeviceFacts,
) {
    let row_step = |rows: u32, length: u32, kind: RowKernel, placement: Placement| {
        let mut params = map.params(1);
        params.tile = 0;
        params.copy.rows = rows;
        params.copy.length = length;
        params.copy.row_units = (map.invocations() / map.sizes[0] as u64) as u32;
        params.copy.threads = device.row_threads;
        let entry = match kind {
            RowKernel::InPlace => Entry::ScatterRowsInPlace,
            _ => Entry::ScatterCopyRows,
        };
        Step {
            kernel: Kernel::Scatter {
                unit: map.unit(),
                in_order: false,
                rows: kind,
            },
            entry,
            params: Parameters::Index(params),
            // `rows` workgroups (of the kernel's own size).
            grid: Grid::Flat(rows as u64 * device.workgroup_size as u64),
            placement,
        }
    };
    let plain = |placement| map.dispatch(kernel, grouping, placement);
    match rows.copy_rows {
        Some((rows, length)) => steps.push(row_step(
            rows,
            length,
            RowKernel::Copying,
            Placement::OutOfPlace,
        )),
        None if rows.rows_in_place.is_some() => steps.push(plain(Placement::OutOfPlace)),
        None => {}
    }
    match rows.rows_in_place {
        Some((rows, length)) => steps.push(row_step(
            rows,
            length,
            RowKernel::InPlace,
            Placement::InPlace,
        )),
        None if rows.copy_rows.is_some() => steps.push(plain(Placement::InPlace)),
        None => {}
    }
    if rows.copy_rows.is_none() && rows.rows_in_place.is_none() {
        steps.push(plain(Placement::Always));
    }
}
