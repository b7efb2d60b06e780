;; Template function example (docs/plugins.md): {{plugin:upper:upper(hello)}} renders HELLO.
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
  ;; upper(["text"]): the input's bytes between its brackets (the first argument as a JSON string)
  ;; with a-z in capitals; the byte after a backslash is copied as it is, so escapes stay valid
  (func (export "upper") (param $ptr i32) (param $len i32) (result i32)
    (local $out i32) (local $i i32) (local $n i32) (local $c i32)
    (local.set $out (i32.and (i32.add (i32.add (local.get $ptr) (local.get $len)) (i32.const 3)) (i32.const -4)))
    (local.set $n (i32.sub (local.get $len) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $c (i32.load8_u (i32.add (local.get $ptr) (i32.add (local.get $i) (i32.const 1)))))
        (if (i32.eq (local.get $c) (i32.const 92))
          (then
            (i32.store8 (i32.add (local.get $out) (i32.add (local.get $i) (i32.const 4))) (local.get $c))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $c (i32.load8_u (i32.add (local.get $ptr) (i32.add (local.get $i) (i32.const 1))))))
          (else
            (if (i32.and (i32.ge_u (local.get $c) (i32.const 97)) (i32.le_u (local.get $c) (i32.const 122)))
              (then (local.set $c (i32.sub (local.get $c) (i32.const 32)))))))
        (i32.store8 (i32.add (local.get $out) (i32.add (local.get $i) (i32.const 4))) (local.get $c))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.store (local.get $out) (local.get $n))
    (local.get $out))
)
