import re
p='shaders/bindings/read_words.wgsl'
s=open(p).read()
s=s.replace("    value = NAME[AT];\n    // @end\n    return value;\n}\n\n// An 8","    value = NAME[AT >> 1u][AT & 1u];\n    // @end\n    return value;\n}\n\n// An 8",1)
s=s.replace("    value = vec2<u32>(NAME[AT], NAME[AT + 1u]);","    value = NAME[AT >> 1u];")
open(p,'w').write(s)
p='src/kernels/source.rs'
s=open(p).read()
s=s.replace('Access::ReadWords => ("u32", "read", F::ReadWords),','Access::ReadWords => ("vec2<u32>", "read", F::ReadWords),')
open(p,'w').write(s)
