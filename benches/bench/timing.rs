//! The benchmark's timing: a context, buffers made once and kept, each workload compiled
//! and recorded into fresh encoders, GPU time by timestamp queries; the rows it prints and
//! writes as JSON.

use super::*;

pub struct Bench {
    pub context: Context,
    pub adapter: String,
    pub reps: usize,
    pub timestamps: bool,
    /// `--profile`: each operator's dispatches timed one by one after its run (timestamps
    /// between them, where the device has them), printed under its row.
    pub profile: bool,
    pub period_ns: f64,
    pub rows: Vec<Row>,
    pub inputs: std::cell::RefCell<std::collections::HashMap<String, wgpu::Buffer>>,
    pub output: std::cell::RefCell<Option<wgpu::Buffer>>,
}

pub struct Row {
    pub workload: String,
    pub ms: f64,
    pub bytes: u64,
    pub implementation: String,
    pub note: String,
}

impl Row {
    pub fn gbps(&self) -> f64 {
        self.bytes as f64 / (self.ms * 1e-3) / 1e9
    }
}

/// Buffers bound to one operator: inputs, then the output.
pub struct Bound {
    pub inputs: Vec<wgpu::Buffer>,
    pub output: Option<wgpu::Buffer>,
}

impl Bound {
    /// The operator's bindings: every input whole, and the output (in place: the first
    /// input).
    pub fn bindings(
        &self,
        in_place: bool,
    ) -> (Vec<wgpu::BufferBinding<'_>>, wgpu::BufferBinding<'_>) {
        let inputs = self
            .inputs
            .iter()
            .map(|b| b.as_entire_buffer_binding())
            .collect();
        let output = match (&self.output, in_place) {
            (_, true) => self.inputs[0].as_entire_buffer_binding(),
            (Some(o), false) => o.as_entire_buffer_binding(),
            (None, false) => unreachable!("an output buffer"),
        };
        (inputs, output)
    }
}

impl Bench {
    /// The input buffer called `name`, created from `data` on first use and kept: every
    /// buffer is allocated once, as an application's long-lived tensors are. (Freeing and
    /// reallocating hundreds of MiB between workloads made later scattered workloads run
    /// several times slower on the H200 than the same workload run first.)
    pub fn input(&self, name: &str, data: &[u8]) -> wgpu::Buffer {
        let mut cache = self.inputs.borrow_mut();
        if let Some(b) = cache.get(name)
            && b.size() == data.len().div_ceil(4) as u64 * 4
        {
            return b.clone();
        }
        let b = self.buffer(data);
        cache.insert(name.to_string(), b.clone());
        b
    }

    /// One output buffer for every workload, grown when one needs more.
    pub fn output(&self, size: u64) -> wgpu::Buffer {
        let mut output = self.output.borrow_mut();
        match output.as_ref() {
            Some(b) if b.size() >= size => b.clone(),
            _ => {
                let b = self.empty(size);
                *output = Some(b.clone());
                b
            }
        }
    }

    pub fn buffer(&self, data: &[u8]) -> wgpu::Buffer {
        self.context
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: data,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            })
    }

    pub fn empty(&self, size: u64) -> wgpu::Buffer {
        self.context
            .device()
            .create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
    }

    pub fn wait(&self) {
        self.context
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    /// Median GPU milliseconds of `record` (warm-up first), by timestamps where the adapter
    /// has them, else by wall clock around submit-and-wait.
    pub fn time(
        &self,
        mut record: impl FnMut(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites>),
    ) -> (f64, &'static str) {
        let device = self.context.device();
        let queue = self.context.queue();
        // Warm-up: at least 5 runs and 300 ms of them. The driver lowers the SM clock while
        // the GPU idles (seen on the H200: 1980 MHz down to 400-700 MHz within seconds of the
        // CPU preparing data), and takes a while under load to raise it again.
        let warm_until = Instant::now() + std::time::Duration::from_millis(300);
        let mut warm = 0;
        while warm < 5 || Instant::now() < warm_until {
            let mut encoder = device.create_command_encoder(&Default::default());
            record(&mut encoder, None);
            queue.submit([encoder.finish()]);
            self.wait();
            warm += 1;
        }
        let mut times = Vec::with_capacity(self.reps);
        if self.timestamps {
            let count = 2 * self.reps as u32;
            let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count,
            });
            let resolve = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: count as u64 * 8,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let readback = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: count as u64 * 8,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            for r in 0..self.reps as u32 {
                let mut encoder = device.create_command_encoder(&Default::default());
                record(
                    &mut encoder,
                    Some(wgpu::ComputePassTimestampWrites {
                        query_set: &set,
                        beginning_of_pass_write_index: Some(2 * r),
                        end_of_pass_write_index: Some(2 * r + 1),
                    }),
                );
                queue.submit([encoder.finish()]);
                // One run at a time, as torch_peer.py synchronises after each: a pass's
                // beginning timestamp may otherwise be taken while the previous run still
                // executes, and count part of it.
                self.wait();
            }
            let mut encoder = device.create_command_encoder(&Default::default());
            encoder.resolve_query_set(&set, 0..count, &resolve, 0);
            encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, count as u64 * 8);
            queue.submit([encoder.finish()]);
            readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
            self.wait();
            let ticks: Vec<u64> =
                bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
            for r in 0..self.reps {
                let d = ticks[2 * r + 1].wrapping_sub(ticks[2 * r]);
                times.push(d as f64 * self.period_ns * 1e-6);
            }
        } else {
            for _ in 0..self.reps {
                let start = Instant::now();
                let mut encoder = device.create_command_encoder(&Default::default());
                record(&mut encoder, None);
                queue.submit([encoder.finish()]);
                self.wait();
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
        times.sort_by(|a, b| a.total_cmp(b));
        (
            times[times.len() / 2],
            if self.timestamps {
                "gpu timestamps"
            } else {
                "wall clock"
            },
        )
    }

    pub fn time_operator(
        &self,
        operator: &CompiledOperator,
        bound: &Bound,
        in_place: bool,
    ) -> (f64, &'static str) {
        self.time(|encoder, timestamps| {
            let (inputs, output) = bound.bindings(in_place);
            operator
                .record_with_timestamps(encoder, &inputs, output, timestamps)
                .expect("record");
        })
    }

    pub fn push(&mut self, workload: &str, ms: f64, bytes: u64, note: &str) {
        let row = Row {
            workload: workload.to_string(),
            ms,
            bytes,
            implementation: "dml-wgsl".to_string(),
            note: note.to_string(),
        };
        println!(
            "{:32} {:10.4} ms {:9.1} GB/s   {}",
            row.workload,
            row.ms,
            row.gbps(),
            row.note
        );
        self.rows.push(row);
    }

    /// Compiles and times a workload; returns the milliseconds.
    pub fn operator(&mut self, name: &str, prepared: &Prepared) -> f64 {
        let operator = self.context.compile(&prepared.desc).expect("compile");
        let bound = Bound {
            inputs: prepared
                .inputs
                .iter()
                .map(|(name, data)| self.input(name, data))
                .collect(),
            output: (!prepared.in_place).then(|| self.output(operator.output_size())),
        };
        let (ms, how) = self.time_operator(&operator, &bound, prepared.in_place);
        self.push(name, ms, prepared.bytes, how);
        if self.profile {
            self.profile_operator(&operator, &bound, prepared.in_place);
        }
        ms
    }

    /// Prints each dispatch's median GPU microseconds over the reps (a timestamp before the
    /// first and after each, `CompiledOperator::record_profiled`), and their sum.
    pub fn profile_operator(&self, operator: &CompiledOperator, bound: &Bound, in_place: bool) {
        let device = self.context.device();
        let queue = self.context.queue();
        let inside = wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES;
        if !device.features().contains(inside) {
            println!("  profile: the device lacks TIMESTAMP_QUERY_INSIDE_PASSES");
            return;
        }
        let count = operator.dispatch_count() as u32 + 1;
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let bytes = count as u64 * 8;
        let resolve = self.empty_with(
            bytes,
            wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        );
        let readback = self.empty_with(
            bytes * self.reps as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let (inputs, output) = bound.bindings(in_place);
        let mut entries = Vec::new();
        for r in 0..self.reps as u64 {
            let mut encoder = device.create_command_encoder(&Default::default());
            entries = operator
                .record_profiled(&mut encoder, &inputs, output.clone(), &set)
                .expect("record");
            let written = entries.len() as u32 + 1;
            encoder.resolve_query_set(&set, 0..written, &resolve, 0);
            encoder.copy_buffer_to_buffer(&resolve, 0, &readback, r * bytes, written as u64 * 8);
            queue.submit([encoder.finish()]);
            self.wait();
        }
        readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
        self.wait();
        let ticks: Vec<u64> =
            bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
        let mut line = String::from("  profile (us):");
        let mut total = 0.0;
        for (k, entry) in entries.iter().enumerate() {
            let mut times: Vec<f64> = (0..self.reps)
                .map(|r| {
                    let at = r * count as usize + k;
                    ticks[at + 1].wrapping_sub(ticks[at]) as f64 * self.period_ns * 1e-3
                })
                .collect();
            times.sort_by(|a, b| a.total_cmp(b));
            let median = times[times.len() / 2];
            total += median;
            line += &format!(" {entry} {median:.1};");
        }
        println!("{line} sum {total:.1}");
    }

    pub fn new(context: Context, reps: usize) -> Bench {
        let info = context.adapter_info();
        let adapter = format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type);
        let timestamps = context
            .device()
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY);
        let period_ns = context.queue().get_timestamp_period() as f64;
        println!(
            "adapter: {adapter}; timing: {}",
            if timestamps {
                "GPU timestamp queries"
            } else {
                "wall clock (no timestamp queries)"
            }
        );
        Bench {
            profile: false,
            context,
            adapter,
            reps,
            timestamps,
            period_ns,
            rows: Vec::new(),
            inputs: Default::default(),
            output: Default::default(),
        }
    }

    /// copy_buffer_to_buffer of `data`'s bytes, for comparison with the roof copy.
    pub fn copy_buffer_comparison(&self, data: &[u8]) {
        let features = self.context.device().features();
        if !features.contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS) {
            return;
        }
        let source = self.buffer(data);
        let target = self.empty(data.len() as u64);
        let ms = self.time_copy(&source, &target);
        println!(
            "{:32} {:10.4} ms {:9.1} GB/s   copy_buffer_to_buffer, for comparison",
            "copy_256MiB (copy_buffer)",
            ms,
            2.0 * data.len() as f64 / (ms * 1e-3) / 1e9
        );
    }

    /// One JSON object a line, with the fields of `torch_peer.py` and the roof fraction.
    pub fn write_json(&self, path: &str, roof_gbps: f64) {
        let mut f = std::fs::File::create(path).expect("json file");
        for r in &self.rows {
            let roof = r.gbps() / roof_gbps;
            writeln!(
                f,
                "{{\"workload\": \"{}\", \"ms\": {}, \"bytes\": {}, \"GBps\": {}, \"impl\": \"{}\", \"adapter\": \"{}\", \"roof_fraction\": {}, \"timing\": \"{}\"}}",
                r.workload,
                r.ms,
                r.bytes,
                r.gbps(),
                r.implementation,
                self.adapter.replace('"', "'"),
                if roof.is_nan() { "null".to_string() } else { format!("{roof:.4}") },
                r.note
            )
            .unwrap();
        }
    }
}

impl Bench {
    /// copy_buffer_to_buffer between encoder timestamps.
    pub fn time_copy(&self, source: &wgpu::Buffer, target: &wgpu::Buffer) -> f64 {
        let device = self.context.device();
        let queue = self.context.queue();
        let count = 2 * self.reps as u32;
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let resolve = self.empty_with(
            count as u64 * 8,
            wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        );
        let readback = self.empty_with(
            count as u64 * 8,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        for r in 0..self.reps as u32 {
            let mut encoder = device.create_command_encoder(&Default::default());
            encoder.write_timestamp(&set, 2 * r);
            encoder.copy_buffer_to_buffer(source, 0, target, 0, source.size());
            encoder.write_timestamp(&set, 2 * r + 1);
            queue.submit([encoder.finish()]);
            self.wait();
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.resolve_query_set(&set, 0..count, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, count as u64 * 8);
        queue.submit([encoder.finish()]);
        readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
        self.wait();
        let ticks: Vec<u64> =
            bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
        let mut times: Vec<f64> = (0..self.reps)
            .map(|r| ticks[2 * r + 1].wrapping_sub(ticks[2 * r]) as f64 * self.period_ns * 1e-6)
            .collect();
        times.sort_by(|a, b| a.total_cmp(b));
        times[times.len() / 2]
    }

    pub fn empty_with(&self, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.context
            .device()
            .create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size,
                usage,
                mapped_at_creation: false,
            })
    }

    /// slice_tiny_64x64: GPU time, wall-clock submit-to-done, and 1000 recorded into one encoder.
    pub fn tiny(&mut self) {
        let desc = slice(&[64, 64], &[0, 0], &[32, 32], &[2, 2]);
        let bytes = 2 * 32 * 32 * 4;
        let mut rng = Rng::new(7);
        let operator = self.context.compile(&desc).expect("compile");
        let bound = Bound {
            inputs: vec![self.buffer(&rng.bytes(64 * 64 * 4))],
            output: Some(self.empty(32 * 32 * 4)),
        };
        let (ms, how) = self.time_operator(&operator, &bound, false);
        self.push("slice_tiny_64x64", ms, bytes, how);
        let device = self.context.device();
        let queue = self.context.queue();
        let input = bound.inputs[0].as_entire_buffer_binding();
        let output = bound.output.as_ref().unwrap().as_entire_buffer_binding();
        // Wall clock from submit to done, one operator a submission.
        let mut walls: Vec<f64> = (0..self.reps * 4)
            .map(|_| {
                let start = Instant::now();
                let mut encoder = device.create_command_encoder(&Default::default());
                operator
                    .record(&mut encoder, std::slice::from_ref(&input), output.clone())
                    .unwrap();
                queue.submit([encoder.finish()]);
                self.wait();
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        walls.sort_by(|a, b| a.total_cmp(b));
        let wall = walls[walls.len() / 2];
        println!(
            "{:32} {:10.4} ms (wall clock: record, submit, wait)",
            "slice_tiny_64x64 submit-to-done", wall
        );
        self.rows.push(Row {
            workload: "slice_tiny_64x64_wall".into(),
            ms: wall,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "wall clock submit-to-done".into(),
        });
        // Recording alone: `record` of the same operator on the same buffers, 1000 times into
        // one encoder, over 20 rounds; the median round's time per operator. (Submitting and
        // waiting are left out: this is the CPU cost an application pays per operator.)
        let mut rounds: Vec<f64> = (0..20)
            .map(|_| {
                let mut encoder = device.create_command_encoder(&Default::default());
                let start = Instant::now();
                for _ in 0..1000 {
                    operator
                        .record(&mut encoder, std::slice::from_ref(&input), output.clone())
                        .unwrap();
                }
                let per_operator = start.elapsed().as_secs_f64() * 1e3 / 1000.0;
                drop(encoder);
                per_operator
            })
            .collect();
        rounds.sort_by(|a, b| a.total_cmp(b));
        let record_ms = rounds[rounds.len() / 2];
        println!(
            "{:32} {:10.4} ms (CPU: record alone, same buffers, median of 20 rounds of 1000)",
            "slice_tiny_64x64 record", record_ms
        );
        self.rows.push(Row {
            workload: "slice_tiny_64x64_record_cpu".into(),
            ms: record_ms,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "CPU time of record alone".into(),
        });
        // 1000 operators in one encoder, each writing its own output (1000 different tiny
        // results, as an application would record them): GPU time between the first pass's
        // start and the last's end, and wall clock of recording, submitting and waiting.
        const BATCH: u32 = 1000;
        let outputs: Vec<wgpu::Buffer> = (0..BATCH).map(|_| self.empty(32 * 32 * 4)).collect();
        let batch = |timestamps: Option<&wgpu::QuerySet>| {
            let mut encoder = device.create_command_encoder(&Default::default());
            for i in 0..BATCH {
                let writes = timestamps.filter(|_| i == 0 || i == BATCH - 1).map(|set| {
                    wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: (i == 0).then_some(0),
                        end_of_pass_write_index: (i == BATCH - 1).then_some(1),
                    }
                });
                operator
                    .record_with_timestamps(
                        &mut encoder,
                        std::slice::from_ref(&input),
                        outputs[i as usize].as_entire_buffer_binding(),
                        writes,
                    )
                    .unwrap();
            }
            encoder
        };
        let start = Instant::now();
        let encoder = batch(None);
        queue.submit([encoder.finish()]);
        self.wait();
        let wall_each = start.elapsed().as_secs_f64() * 1e3 / BATCH as f64;
        let mut gpu_each = f64::NAN;
        if self.timestamps {
            let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            });
            let resolve = self.empty_with(
                16,
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            );
            let readback = self.empty_with(
                16,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            );
            let mut encoder = batch(Some(&set));
            encoder.resolve_query_set(&set, 0..2, &resolve, 0);
            encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, 16);
            queue.submit([encoder.finish()]);
            readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
            self.wait();
            let ticks: Vec<u64> =
                bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
            gpu_each =
                ticks[1].wrapping_sub(ticks[0]) as f64 * self.period_ns * 1e-6 / BATCH as f64;
        }
        println!(
            "{:32} {:10.4} ms GPU, {:.4} ms wall (record + submit + wait) per operator",
            "slice_tiny_64x64 x1000 batched", gpu_each, wall_each
        );
        self.rows.push(Row {
            workload: "slice_tiny_64x64_batched_gpu".into(),
            ms: gpu_each,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "per operator, 1000 in one encoder, gpu timestamps".into(),
        });
        self.rows.push(Row {
            workload: "slice_tiny_64x64_batched_wall".into(),
            ms: wall_each,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "per operator, 1000 in one encoder, wall clock incl. recording".into(),
        });
    }
}
