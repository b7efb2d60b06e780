;; Response modifier example (docs/plugins.md): answers only what it changes.
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
  (data (i32.const 128) "\2b\00\00\00{\22headers\22:{\22x-stamped-by\22:\22stamp-plugin\22}}")
  (func (export "stamp") (param $ptr i32) (param $len i32) (result i32) (i32.const 128))
)
