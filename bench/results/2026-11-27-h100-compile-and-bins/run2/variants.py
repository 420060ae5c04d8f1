import sys,re
v=sys.argv[1]
def sub(path, old, new):
    s=open(path).read()
    assert old in s, (path, old[:60])
    s=s.replace(old,new,1); open(path,'w').write(s)
R='/work/main/shaders/scatter_runs.wgsl'
S='/work/main/shaders/scatter_reduce.wgsl'
A='/work/main/shaders/arithmetic.wgsl'
if 'nochain' in v:
    s=open(R).read()
    i=s.index("    if FAST_CHAIN {\n        let start")
    j=s.index("    var folded = value;\n    for (var k = 0u; k < n; k += 1u) {")
    s=s[:i]+s[j:]; open(R,'w').write(s)
if 'noslowfold' in v:
    sub(R,"folded = combine_unit(folded, chunk_values[at + k]);","folded = chunk_values[at + k];")
if 'noloop' in v:
    sub(S,"""        for (var k = 0u; k < min(params.bins.per_thread, REDUCE_GROUP); k += 1u) {
            let j = t + k * threads;
            if j < params.count {
                reduce_unit(group_index(j));
            }
        }""","""        let j = t;
        if j < params.count {
            reduce_unit(group_index(j));
        }""")
if 'noslots' in v:
    s=open(S).read()
    i=s.index("    if at.indexed != NO_TARGET {\n        loop {")
    j=s.index("    reduce_output(at.indexed, value);\n}")
    s=s[:i]+s[j:]; open(S,'w').write(s)
    sub(S,"""    if claimed != NO_TARGET {
        reduce_output(claimed, narrowed(atomicLoad(&slot_values[local])));
    }""","")
if 'trivial' in v:
    sub(A,"    return combine_numbers(current, update);\n// @add-mul-end","    return current ^ update;\n// @add-mul-end")
