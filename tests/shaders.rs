//! Every shader variant parses, validates and translates with naga to SPIR-V, MSL and HLSL
//! (those with f64, which wgpu offers on Vulkan only, to SPIR-V alone; those with f32
//! atomics, Vulkan and Metal only, to SPIR-V and MSL), and to GLSL where it uses no 64-bit
//! types: the evidence for Metal, DX12 and GL backends that no machine here has.
#![cfg(not(target_arch = "wasm32"))] // host-only checks, run natively; the browser has tests/web.rs

use naga::back::{glsl, hlsl, msl, spv};
use naga::valid::{Capabilities, ValidationFlags, Validator};

#[test]
fn every_shader_variant_translates_to_every_backend_language() {
    let variants = dml_wgsl::shader_variants();
    assert!(
        variants.len() >= 15,
        "the registry lists {} variants",
        variants.len()
    );
    for variant in variants {
        let (label, source) = (&variant.label, &variant.source);
        let module = naga::front::wgsl::parse_str(source)
            .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(source)));
        for wanted in &variant.entry_points {
            assert!(
                module.entry_points.iter().any(|e| e.name == *wanted),
                "{label}: no entry point {wanted}"
            );
        }
        // 64-bit atomics and f64 only where the variant needs them (no other may use 64-bit
        // types).
        let mut capabilities = Capabilities::empty();
        if variant.needs_int64_atomics {
            capabilities |= Capabilities::SHADER_INT64 | Capabilities::SHADER_INT64_ATOMIC_ALL_OPS;
        }
        if variant.needs_float64 {
            capabilities |= Capabilities::FLOAT64 | Capabilities::SHADER_INT64;
        }
        if variant.needs_float32_atomics {
            capabilities |= Capabilities::SHADER_FLOAT32_ATOMIC;
        }
        if variant.needs_float16 {
            capabilities |= Capabilities::SHADER_FLOAT16;
        }
        let info = Validator::new(ValidationFlags::all(), capabilities)
            .validate(&module)
            .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(source)));
        // Pipeline constants resolved, as the backends need them: the specialisation
        // constants at values of a rank-3 walk with pairs of signed 64-bit indices (and a
        // copy that merges its last word), the others (CLAMP_INDICES) at their defaults.
        let constants: naga::back::PipelineConstants = module
            .overrides
            .iter()
            .filter_map(|(_, o)| {
                let name = o.name.as_deref()?;
                let value = match name {
                    "RANK" => 3.0,
                    "TUPLE_SIZE" => 2.0,
                    "INDEX_FLAGS" => 3.0,
                    // The copies' merging code translated too.
                    "MERGES_LAST_WORD" => 1.0,
                    _ => return None,
                };
                Some((name.to_string(), value))
            })
            .collect();
        let (module, info) =
            naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants)
                .unwrap_or_else(|e| panic!("{label}: overrides: {e}"));
        let (module, info) = (module.into_owned(), info.into_owned());

        let spirv = spv::write_vec(&module, &info, &spv::Options::default(), None)
            .unwrap_or_else(|e| panic!("{label}: SPIR-V: {e}"));
        assert!(!spirv.is_empty());

        // wgpu 30 offers SHADER_F64 on Vulkan only: SPIR-V is the f64 variants' one language
        // (Metal has no f64, and naga's HLSL writer turns an 8-byte bitcast into a
        // conversion).
        if variant.needs_float64 {
            continue;
        }
        let (metal, _) = msl::write_string(
            &module,
            &info,
            &msl::Options::default(),
            &msl::PipelineOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{label}: MSL: {e}"));
        assert!(metal.contains("kernel"), "{label}: no kernel in the MSL");

        // wgpu 30 offers f32 atomics on Vulkan and Metal only.
        if variant.needs_float32_atomics {
            continue;
        }

        for entry in &module.entry_points {
            let mut text = String::new();
            // f16 needs shader model 6.2 (DX12's 16-bit types).
            let options = hlsl::Options {
                shader_model: if variant.needs_float16 {
                    hlsl::ShaderModel::V6_2
                } else {
                    hlsl::Options::default().shader_model
                },
                ..Default::default()
            };
            let pipeline = hlsl::PipelineOptions {
                entry_point: Some((naga::ShaderStage::Compute, entry.name.clone())),
            };
            let mut writer = hlsl::Writer::new(&mut text, &options, &pipeline);
            writer
                .write(&module, &info, None)
                .unwrap_or_else(|e| panic!("{label}: HLSL: {e}"));
            assert!(
                text.contains("numthreads"),
                "{label}: no numthreads in the HLSL"
            );

            // GL has no 64-bit atomics (wgpu offers them on Vulkan, Metal and DX12 only), nor
            // f16.
            if variant.needs_int64_atomics || variant.needs_float16 {
                continue;
            }
            let mut text = String::new();
            let options = glsl::Options {
                version: glsl::Version::Desktop(430),
                ..Default::default()
            };
            let pipeline = glsl::PipelineOptions {
                shader_stage: naga::ShaderStage::Compute,
                entry_point: entry.name.clone(),
                multiview: None,
            };
            glsl::Writer::new(
                &mut text,
                &module,
                &info,
                &options,
                &pipeline,
                Default::default(),
            )
            .and_then(|mut w| w.write())
            .unwrap_or_else(|e| panic!("{label}: GLSL: {e}"));
            assert!(text.contains("void main"), "{label}: no main in the GLSL");
        }
    }
}
