import re,glob,os,sys
src='/tmp/probe'; out='/tmp/variants'
def find(part):
    m=[f for f in os.listdir(src) if part in f]
    assert len(m)>=1,part
    return open(os.path.join(src,sorted(m)[0])).read()
def stub(text,name,body):
    m=re.search(r'^fn '+name+r'\(.*?\{\n',text,re.M|re.S)
    assert m,name
    end=text.index('\n}\n',m.end())
    return text[:m.end()]+'    '+body+text[end:]
def sub(text,old,new):
    assert old in text,old
    return text.replace(old,new)
def emit(tag,text):
    open(os.path.join(out,tag+'.wgsl'),'w').write(text)
    # compile check on the host later
V={}
b=find('scatter_mul_f32_in_order__fold_long_runs'); emit('flr_mul.base',b)
emit('flr_mul.noarith',stub(b,'combine_unit','return current ^ update;'))
emit('flr_mul.nomul',stub(b,'mul_binary32','return a ^ b;'))
emit('flr_mul.nofold',stub(b,'fold_chunk','return value;'))
emit('flr_mul.noload',stub(b,'load_chunk','return;'))
emit('flr_mul.simpleload',stub(b,'load_chunk','''let loader = local - WORKGROUP_SIZE / 2u;
    let loaders = WORKGROUP_SIZE - WORKGROUP_SIZE / 2u;
    let buffer = chunk % 2u;
    let first = run.y + chunk * LONG_CHUNK + loader;
    for (var k = 0u; k < LONG_LOADS; k += 1u) {
        if first + k * loaders < run.z {
            chunk_values[buffer * LONG_CHUNK + k * loaders + loader] = load_sorted_value(first + k * loaders);
        }
    }'''))
t=stub(b,'fold_chunk','''let at = buffer * LONG_CHUNK;
    var folded = value;
    for (var k = 0u; k < n; k += 1u) {
        folded = combine_unit(folded, chunk_values[at + k]);
    }
    return folded;''')
emit('flr_mul.nochain',t)
b=find('scatter_add_f32_in_order__fold_long_runs'); emit('flr_add.base',b)
emit('flr_add.noarith',stub(b,'combine_unit','return current ^ update;'))
b=find('scatter_mul_f32__scatter_reduce'); emit('sr_mul.base',b)
emit('sr_mul.noarith',stub(b,'combine_unit','return current ^ update;'))
emit('sr_mul.nomul',stub(b,'mul_binary32','return a ^ b;'))
emit('sr_mul.noindex',stub(b,'apply_index','return base;'))
emit('sr_mul.steps2',sub(b,'let steps = min(params.bins.per_thread, REDUCE_GROUP);','let steps = min(params.bins.per_thread, 2u);'))
emit('sr_mul.stepsopaque',sub(b,'let steps = min(params.bins.per_thread, REDUCE_GROUP);','let steps = params.bins.per_thread;'))
b=find('scatter_add_f32__scatter_reduce'); emit('sr_add.base',b)
emit('sr_add.noarith',stub(b,'combine_unit','return current ^ update;'))
emit('sr_add.noindex',stub(b,'apply_index','return base;'))
b=find('scatter_add_f32_dense__scatter_reduce'); emit('sr_screened.base',b)
b=find('scatter_max_f16__scatter_reduce'); emit('sr_f16max.base',b)
emit('sr_f16max.noarith',stub(b,'combine_unit','return current ^ update;'))
b=find('scatter_min_f32__scatter_reduce'); emit('sr_min.base',b)
b=find('scatter_copy_rows'); emit('scr.base',b)
emit('scr.group1',sub(b,'const GROUP: u32 = 4u;','const GROUP: u32 = 1u;'))
emit('scr.noindex',stub(b,'apply_index','return base;'))
emit('scr.nosequence',stub(b,'sequence_position','return 0u;'))
emit('scr.nofloormod',stub(b,'floor_mod','return 0u;'))
b=find('scatter_mul_f32_in_order__radix_scatter'); emit('radix_scatter.base',b)
b=find('scatter_mul_f32_in_order__radix_count'); emit('radix_count.base',b)
b=find('scatter_mul_f32_in_order__fold_runs__'); emit('fold_runs_mul.base',b)
emit('fold_runs_mul.noarith',stub(b,'combine_unit','return current ^ update;'))
b=find('scatter_add_f32__describe_status'); emit('ds.base',b)
emit('ds.noindex',stub(b,'apply_index','return base;'))
emit('ds.nosequence',stub(b,'sequence_position','return 0u;'))
emit('ds.nofloormod',stub(b,'floor_mod','return 0u;'))
emit('ds.nolocate',stub(b,'locate_base','return Location(i, i, i, IN_RANGE);'))
b=find('gather_elements__gather_rows'); emit('gather_rows.base',b)
emit('gather_rows.noindex',stub(b,'apply_index','return base;'))
b=find('scatter_elements__scatter_rows'); emit('scatter_rows.base',b)
b=find('slice__strided_copy'); emit('strided_copy.base',b)
b=find('gather__gather__'); emit('gather.base',b)
b=find('scatter_add_f32_in_order__clear_heads'); emit('clear_heads.base',b)
emit('trivial.base','// probe-entry: main\n// probe-constants: \n@compute @workgroup_size(256) fn main() {}\n')
emit('trivial2.base','// probe-entry: main\n// probe-constants: \n@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>) { b[g.x] = b[g.x] + 1u; }\n')
import shutil
for f in os.listdir(out): os.remove(os.path.join(out,f))
CH16='''            for (; k + 16u <= n; k += 16u) {
                let a = chunk_quad(at + k);
                let b = chunk_quad(at + k + 4u);
                let c = chunk_quad(at + k + 8u);
                let d = chunk_quad(at + k + 12u);
                state = chain4(chain4(chain4(chain4(state, a), b), c), d);
            }'''
CH4='''            for (; k + 4u <= n; k += 4u) {
                state = chain4(state, chunk_quad(at + k));
            }'''
NB='let n = min(LONG_CHUNK, run.z - run.y - c * LONG_CHUNK);'
NO='let n = min(params.in_order.fold_capacity, run.z - run.y - c * LONG_CHUNK);'
for op in ['mul','add']:
    b=find('scatter_%s_f32_in_order__fold_long_runs'%op)
    emit('flr_%s.base'%op,b)
    emit('flr_%s.chain4'%op,sub(b,CH16,CH4))
    emit('flr_%s.opaque'%op,sub(b,NB,NO))
    emit('flr_%s.chain4opaque'%op,sub(sub(b,CH16,CH4),NB,NO))
    emit('flr_%s.nochain'%op,sub(b,'if FAST_CHAIN {\n        let start','if false {\n        let start'))
b=find('scatter_mul_f32_in_order__radix_scatter'); emit('radix_scatter.base',b)
RB='for (var r = 0u; r < min(params.in_order.radix_rounds, RADIX_ROUNDS); r += 1u) {'
emit('radix_scatter.opaque',sub(b,RB,'for (var r = 0u; r < params.in_order.radix_rounds; r += 1u) {'))
b=find('scatter_mul_f32_in_order__radix_count'); emit('radix_count.base',b)
b=find('scatter_add_f32__scatter_reduce'); emit('sr_add.base',b)
SB='let steps = min(params.bins.per_thread, REDUCE_GROUP);'
emit('sr_add.opaque',sub(b,SB,'let steps = params.bins.per_thread;'))
emit('sr_add.noadd',stub(b,'add_binary32','return a ^ b;'))
b=find('scatter_add_f32_dense__scatter_reduce'); emit('sr_screened.base',b)
emit('sr_screened.noarith',stub(b,'combine_unit','return current ^ update;'))
emit('sr_screened.noadd',stub(b,'add_binary32','return a ^ b;'))
b=find('scatter_mul_f32_in_order__fold_runs__'); emit('fold_runs_mul.base',b)
b=find('scatter_max_f16__scatter_reduce'); emit('sr_f16max.base',b)
emit('trivial2.base','// probe-entry: main\n// probe-constants: \n@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>) { b[g.x] = b[g.x] + 1u; }\n')
