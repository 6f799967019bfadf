#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| zero_fuzz::cli(data));
