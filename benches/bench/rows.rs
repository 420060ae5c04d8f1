//! The row workloads of 1- and 2-byte elements, odd rows, and the embedding lookup on
//! devices whose binding limit splits the table.

use super::*;

/// Gather of the k rows of `Data::rows` from the [n, n] Float32 table (an embedding lookup).
/// Also timed on devices whose binding limit splits the table (see `split_devices`).
pub fn gather_rows_table(d: &mut Data) -> Prepared<'_> {
    let (n, k) = (d.n, d.k);
    let desc = GatherDesc::new(
        f32_tensor(&[n, n]),
        TensorDesc::new(DataType::Int64, &[1, k]),
        f32_tensor(&[k, n]),
        0,
        2,
    );
    let bytes = 2 * (k * n * 4) as u64 + k as u64 * 8;
    let mut prepared = Prepared::new(desc.into(), &[("a", &d.a)], bytes);
    prepared
        .inputs
        .push(("table_rows", Cow::Owned(le_bytes::<i64>(&d.rows))));
    prepared
}

/// gather_rows_table again on devices of the same adapter whose
/// `max_storage_buffer_binding_size` is lowered (the table and output split into windows):
/// every window bound at once, and windows bound a slab at a time (8 storage buffers a
/// stage, WebGPU's default). (row name, binding limit, storage buffers a stage).
pub const SPLIT_DEVICES: &[(&str, u64, Option<u32>)] = &[
    ("gather_rows_table_windows", 64 << 20, None),
    ("gather_rows_table_slabs", 32 << 20, Some(8)),
];

/// A context on the default adapter with its binding limit lowered as `SPLIT_DEVICES` says.
pub fn split_device(binding_limit: u64, storage: Option<u32>) -> Context {
    pollster::block_on(async {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .expect("an adapter");
        let mut limits = adapter.limits();
        limits.max_storage_buffer_binding_size =
            binding_limit.min(limits.max_storage_buffer_binding_size);
        if let Some(storage) = storage {
            limits.max_storage_buffers_per_shader_stage = storage;
        }
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                required_features: adapter.features()
                    & (wgpu::Features::TIMESTAMP_QUERY
                        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS),
                required_limits: limits,
                ..Default::default()
            })
            .await
            .expect("a device");
        Context::from_device(device, queue)
    })
}

/// scatter_elements_rows on 1- or 2-byte elements: the same bytes, read as narrower ones.
pub fn narrow_rows(d: &mut Data, data_type: DataType) -> Prepared<'_> {
    let width = data_type.size_in_bytes();
    let (n, k) = (d.n, d.k);
    let desc = d.scatter(data_type, 0, &[k, n]);
    let names = if width == 1 {
        ["scatter_elements_rows_u8", "updates_u8"]
    } else {
        ["scatter_elements_rows_f16", "updates_f16"]
    };
    let inputs = [
        (names[0], &d.a[..(n * n * width) as usize]),
        ("rows_index", &d.rows_index),
        (names[1], &d.updates[..(k * n * width) as usize]),
    ];
    Prepared::new(desc, &inputs, d.scatter_bytes(width as u64))
}

/// Narrow rows whose bytes are not whole words: rows of `ODD_ROW` Int8 or Float16 elements.
/// ScatterElements along axis 0 of [k, ODD_ROW] updates into [n, ODD_ROW] with
/// `idx[i, j] = p[i]` (as scatter_elements_rows; bytes by the same formula), or
/// GatherElements along axis 0 of the same [k, ODD_ROW] indices from an [n, ODD_ROW] input
/// (bytes: the k rows read, the output written, the indices read). Peer:
/// `bench/torch_narrow.py`.
pub const ODD_ROW: u32 = 4097;

pub fn odd_rows(d: &mut Data, data_type: DataType, gather: bool) -> Prepared<'_> {
    let width = data_type.size_in_bytes() as u64;
    let (n, k, c) = (d.n, d.k, ODD_ROW);
    let index: Vec<i64> = (0..k as usize)
        .flat_map(|i| std::iter::repeat_n(d.rows[i], c as usize))
        .collect();
    let (k64, c64) = (k as u64, c as u64);
    let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
    let (desc, bytes): (OperatorDesc, u64) = if gather {
        let desc = GatherElementsDesc::new(
            tensor(&[n, c]),
            TensorDesc::new(DataType::Int64, &[k, c]),
            tensor(&[k, c]),
            0,
        );
        (desc.into(), 2 * k64 * c64 * width + k64 * c64 * 8)
    } else {
        let desc = ScatterElementsDesc::new(
            tensor(&[n, c]),
            TensorDesc::new(DataType::Int64, &[k, c]),
            tensor(&[k, c]),
            tensor(&[n, c]),
            0,
        );
        let n64 = n as u64;
        (
            desc.into(),
            2 * n64 * c64 * width + 2 * k64 * c64 * width + k64 * c64 * 8,
        )
    };
    let mut prepared = Prepared::new(desc, &[], bytes);
    let input = Cow::Owned(d.rng.bytes(tensor_bytes(n, c, width)));
    let (input_name, updates_name) = if width == 1 {
        ("odd_i8_input", "odd_i8_updates")
    } else {
        ("odd_f16_input", "odd_f16_updates")
    };
    prepared.inputs = vec![
        (input_name, input),
        ("odd_rows_index", Cow::Owned(le_bytes::<i64>(&index))),
    ];
    if !gather {
        let updates = Cow::Owned(d.rng.bytes(tensor_bytes(k, c, width)));
        prepared.inputs.push((updates_name, updates));
    }
    prepared
}

pub fn tensor_bytes(rows: u32, columns: u32, width: u64) -> usize {
    (rows as u64 * columns as u64 * width) as usize
}
