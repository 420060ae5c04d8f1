//! Plan tests of the in-order sorted runs and the lists (`src/ops/scatter_plans.rs`): their
//! passes and what each is told to do.

use super::{LIST_ROUNDS, describes_status};
use crate::kernels::Entry;
use crate::kernels::params::{IndexParams, Parameters};
use crate::lowering::{Placement, Step};
use crate::ops::index_map::tests::{DEVICE, GPU};
use crate::ops::{DuplicateMode, Operator, Reduction, ScatterElementsDesc, ScatterNdDesc};
use crate::tensor::{DataType, TensorDesc};

fn index_params(step: &Step) -> &IndexParams {
    match &step.params {
        Parameters::Index(params) => params,
        Parameters::StridedCopy(_) => panic!("a copy's parameters"),
    }
}

/// Float32 `reduction` of `edges` rows of 64 into a table of `nodes` rows (ScatterND).
fn edge_messages(
    edges: u32,
    nodes: u32,
    reduction: Reduction,
    mode: DuplicateMode,
) -> ScatterNdDesc {
    ScatterNdDesc::new(
        TensorDesc::new(DataType::Float32, &[nodes, 64]),
        TensorDesc::new(DataType::Int64, &[edges, 1]),
        TensorDesc::new(DataType::Float32, &[edges, 64]),
        TensorDesc::new(DataType::Float32, &[nodes, 64]),
        2,
        2,
    )
    .with_reduction(reduction)
    .with_duplicates(mode)
}

/// Float32 `reduction` of a 64 x 64 tensor of updates along its outer axis (ScatterElements).
fn elements(reduction: Reduction, mode: DuplicateMode) -> ScatterElementsDesc {
    let floats = TensorDesc::new(DataType::Float32, &[64, 64]);
    ScatterElementsDesc::new(
        floats.clone(),
        TensorDesc::new(DataType::Int32, &[64, 64]),
        floats.clone(),
        floats,
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(mode)
}

#[test]
fn later_list_passes_walk_several_rounds_of_turns_where_loops_are_unbounded() {
    // A million rows into 65,536 (a list could hold them all): past the first pass's 4096 rows,
    // a later pass walks 32 turns (256 threads, 8 a row) of 4096 rows a round: eight passes of
    // one round where the device bounds loops, one of eight rounds on a GPU. Ties too (float
    // Max in order), whose first pass stays bounded.
    for (reduction, mode) in [
        (Reduction::Add, DuplicateMode::AnyUpdate),
        (Reduction::Max, DuplicateMode::InOrder),
    ] {
        let desc = edge_messages(1 << 20, 65536, reduction, mode);
        for (device, passes, rounds) in [(&DEVICE, 8, 1), (&GPU, 1, LIST_ROUNDS)] {
            let lowered = desc.lower(device).expect("lowered");
            let later: Vec<&Step> = lowered
                .steps
                .iter()
                .filter(|step| step.entry == Entry::FoldSliceListRuns)
                .collect();
            let label = format!("{reduction:?}, bounded loops {}", device.bounded_loops);
            assert_eq!(later.len(), passes, "{label}");
            assert!(
                later
                    .iter()
                    .all(|step| index_params(step).in_order.fold_rounds == rounds),
                "{label}"
            );
        }
    }
}

#[test]
fn sorted_runs_and_lists_describe_the_status_in_a_pass_after_their_reports() {
    // No describe_status dispatch: the sorted runs' find_runs (after the sort, whose first
    // radix_count reports) or the lists' first fold (after link_slices), in place and
    // copying, describes it; on a device that bounds loops and on a GPU (the lists' copy by
    // their long entry), ties too, short lists (the wide copy) and long ones. Other plans end
    // with describe_status (here an any-order Max of elements).
    let lists = edge_messages(4096, 1024, Reduction::Add, DuplicateMode::AnyUpdate);
    let long_lists = edge_messages(65536, 1024, Reduction::Add, DuplicateMode::AnyUpdate);
    let ties = edge_messages(4096, 1024, Reduction::Max, DuplicateMode::InOrder);
    let sorted = edge_messages(4096, 1024, Reduction::Add, DuplicateMode::InOrder);
    let sorted_elements = elements(Reduction::Add, DuplicateMode::InOrder);
    let copies = [
        Entry::FoldSliceListCopy,
        Entry::FoldSliceListCopyWide,
        Entry::FoldSliceListCopyWideLong,
    ];
    let list_folds: &[Entry] = &[Entry::FoldSliceListColumns, Entry::FoldSliceLists];
    let cases: [(&dyn Operator, &str, &[Entry]); 5] = [
        (&lists, "lists", list_folds),
        (&long_lists, "long lists", list_folds),
        (&ties, "lists with ties", list_folds),
        (&sorted, "sorted rows", &[Entry::FindRuns]),
        (&sorted_elements, "sorted elements", &[Entry::FindRuns]),
    ];
    let mut long_copies = 0;
    for ((desc, case, hosts), device) in cases.into_iter().flat_map(|c| [(c, &DEVICE), (c, &GPU)]) {
        let label = format!("{case}, bounded loops {}", device.bounded_loops);
        let lowered = desc.lower(device).expect("lowered");
        let describing: Vec<(Entry, Placement)> = lowered
            .steps
            .iter()
            .filter(|step| describes_status(step))
            .map(|step| (step.entry, step.placement))
            .collect();
        long_copies += describing
            .iter()
            .filter(|(entry, _)| *entry == Entry::FoldSliceListCopyWideLong)
            .count();
        let last_report = lowered
            .steps
            .iter()
            .rposition(|step| matches!(step.entry, Entry::LinkSlices | Entry::RadixCount))
            .expect("a reporting pass");
        let first_describing = lowered
            .steps
            .iter()
            .position(describes_status)
            .expect("a describing pass");
        assert!(first_describing > last_report, "{label}: {describing:?}");
        assert!(
            !lowered
                .steps
                .iter()
                .any(|step| step.entry == Entry::DescribeStatus),
            "{label}"
        );
        // One pass whatever the placement: an in-place one, a copying one, or one always.
        let placements: Vec<Placement> = describing.iter().map(|&(_, p)| p).collect();
        assert!(
            placements == [Placement::Always]
                || placements == [Placement::InPlace, Placement::OutOfPlace],
            "{label}: {describing:?}"
        );
        assert!(
            describing
                .iter()
                .all(|(entry, _)| hosts.contains(entry) || copies.contains(entry)),
            "{label}: {describing:?}"
        );
    }
    assert_eq!(long_copies, 1, "the short lists' long copy on a GPU");
    let any_order = elements(Reduction::Max, DuplicateMode::AnyUpdate);
    let lowered = any_order.lower(&DEVICE).expect("lowered");
    assert_eq!(
        lowered.steps.last().map(|step| step.entry),
        Some(Entry::DescribeStatus)
    );
}
