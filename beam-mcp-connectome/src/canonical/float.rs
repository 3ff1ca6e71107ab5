//! Floats as RFC 8785 writes them: ECMAScript's `Number.prototype.toString`.

/// The ECMAScript `Number.prototype.toString` form of a finite float (RFC 8785 §3.2.2.3),
/// with `-0` written `0`; `None` for NaN and the infinities, which JSON cannot hold.
pub(crate) fn ecmascript(value: f64) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    if value == 0.0 {
        return Some("0".to_owned());
    }
    Some(ryu_js::Buffer::new().format_finite(value).to_owned())
}

#[cfg(test)]
mod tests {
    use super::ecmascript;

    #[test]
    fn rfc8785_appendix_b_samples() {
        let cases: &[(u64, &str)] = &[
            (0x0000_0000_0000_0000, "0"),
            (0x8000_0000_0000_0000, "0"),
            (0x0000_0000_0000_0001, "5e-324"),
            (0x8000_0000_0000_0001, "-5e-324"),
            (0x7fef_ffff_ffff_ffff, "1.7976931348623157e+308"),
            (0xffef_ffff_ffff_ffff, "-1.7976931348623157e+308"),
            (0x4340_0000_0000_0000, "9007199254740992"),
            (0xc340_0000_0000_0000, "-9007199254740992"),
            (0x4430_0000_0000_0000, "295147905179352830000"),
            (0x44b5_2d02_c7e1_4af5, "9.999999999999997e+22"),
            (0x44b5_2d02_c7e1_4af6, "1e+23"),
            (0x44b5_2d02_c7e1_4af7, "1.0000000000000001e+23"),
            (0x444b_1ae4_d6e2_ef4e, "999999999999999700000"),
            (0x444b_1ae4_d6e2_ef4f, "999999999999999900000"),
            (0x444b_1ae4_d6e2_ef50, "1e+21"),
            (0x3eb0_c6f7_a0b5_ed8c, "9.999999999999997e-7"),
            (0x3eb0_c6f7_a0b5_ed8d, "0.000001"),
            (0x41b3_de43_5555_5553, "333333333.3333332"),
            (0x41b3_de43_5555_5554, "333333333.33333325"),
            (0x41b3_de43_5555_5555, "333333333.3333333"),
            (0x41b3_de43_5555_5556, "333333333.3333334"),
            (0x41b3_de43_5555_5557, "333333333.33333343"),
            (0xbecb_f647_612f_3696, "-0.0000033333333333333333"),
            (0x4314_3ff3_c1cb_0959, "1424953923781206.2"),
        ];
        for &(bits, text) in cases {
            assert_eq!(
                ecmascript(f64::from_bits(bits)).as_deref(),
                Some(text),
                "{bits:#x}"
            );
        }
        for (value, text) in [
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
        ] {
            assert_eq!(ecmascript(value).as_deref(), Some(text));
        }
        assert_eq!(ecmascript(f64::NAN), None);
        assert_eq!(ecmascript(f64::INFINITY), None);
    }
}
