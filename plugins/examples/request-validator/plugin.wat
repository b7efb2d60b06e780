;; Request validator example (docs/plugins.md).
(module
  (memory (export "memory") 1 16)
  (func (export "mock_abi_version") (result i32) (i32.const 1))
  ;; every call's input starts at the same place: nothing outlives a call but the globals
  (func (export "mock_alloc") (param $size i32) (result i32)
    (local $need i32)
    (local.set $need (i32.add (i32.const 4096) (i32.add (i32.mul (local.get $size) (i32.const 2)) (i32.const 8))))
    (if (i32.gt_u (local.get $need) (i32.mul (memory.size) (i32.const 65536)))
      (then
        (if (i32.eq (memory.grow (i32.sub (i32.add (i32.shr_u (local.get $need) (i32.const 16)) (i32.const 1)) (memory.size))) (i32.const -1))
          (then unreachable))))
    (i32.const 4096))
  (data (i32.const 128) "\0e\00\00\00{\22valid\22:true}")
  (data (i32.const 192) "\44\00\00\00{\22valid\22:false,\22errors\22:[\22the request mentions the word forbidden\22]}")
  (data (i32.const 512) "forbidden")
  ;; whether the len bytes at ptr contain the n bytes at needle
  (func $contains (param $ptr i32) (param $len i32) (param $needle i32) (param $n i32) (result i32)
    (local $i i32) (local $j i32)
    (block $no
      (loop $at
        (br_if $no (i32.gt_s (i32.add (local.get $i) (local.get $n)) (local.get $len)))
        (local.set $j (i32.const 0))
        (block $differs
          (loop $byte
            (if (i32.ge_u (local.get $j) (local.get $n)) (then (return (i32.const 1))))
            (br_if $differs (i32.ne
              (i32.load8_u (i32.add (local.get $ptr) (i32.add (local.get $i) (local.get $j))))
              (i32.load8_u (i32.add (local.get $needle) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $byte)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $at)))
    (i32.const 0))
  (func (export "check") (param $ptr i32) (param $len i32) (result i32)
    (if (result i32) (call $contains (local.get $ptr) (local.get $len) (i32.const 512) (i32.const 9))
      (then (i32.const 192))
      (else (i32.const 128))))
)
