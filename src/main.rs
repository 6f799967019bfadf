fn main() {
    println!("{}", tch::Cuda::is_available());
}
