import sys
v=sys.argv[1]
def sub(path, old, new):
    s=open(path).read()
    assert old in s, (path, old[:60])
    s=s.replace(old,new,1); open(path,'w').write(s)
I='/work/main/shaders/index_map.wgsl'
S='/work/main/shaders/scatter_reduce.wgsl'
if 'seqopaque' in v:
    sub(I,"for (var bit = 63i; bit >= 0; bit -= 1) {","for (var bit = 63i + i32(params.sequence.padding.x); bit >= 0; bit -= 1) {")
    sub(I,"for (var step = 0u; step < 64u; step += 1u) {","for (var step = params.sequence.padding.y; step < 64u; step += 1u) {")
if 'noseq' in v:
    sub(I,"""fn floor_mod(v: vec2<u32>, n: u32) -> u32 {""","""fn floor_mod(v: vec2<u32>, n: u32) -> u32 {
    if true { return v.x % n; }""")
if 'stepsopaque' in v:
    sub(S,"let steps = min(params.bins.per_thread, REDUCE_GROUP);","let steps = params.bins.per_thread;")
