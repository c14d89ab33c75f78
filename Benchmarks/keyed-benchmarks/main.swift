print("keyed-benchmarks: no cases yet")
