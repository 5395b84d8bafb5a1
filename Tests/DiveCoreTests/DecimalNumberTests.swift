import Testing
@testable import DiveCore

@Suite struct DecimalNumberTests {
    @Test(arguments: [
        ("2.6", 2, 260), ("45.91", 2, 4591), ("9.109999999999999", 2, 911), ("0.0025", 3, 3),
        ("-0.0025", 3, -3), ("2.5", 0, 3), ("-2.5", 0, -3), ("1.999E+07", -4, 1999), (".6", 3, 600),
        ("30.4", 3, 30400), ("  12 ", 0, 12),
    ])
    func scaledIntegerRoundsHalfAwayFromZero(text: String, power: Int, expected: Int) throws {
        let d = try #require(DecimalNumber(text))
        #expect(d.scaledInteger(power) == expected)
    }

    @Test(arguments: ["NaN", "Infinity", "-inf", "1e999", "", "  ", "12a", "1.2.3", "e5", "--1", "WOW"])
    func rejectsTextThatIsNoReading(text: String) {
        #expect(DecimalNumber(text) == nil)
    }

    /// One value, one number: spelling does not make two decimals different.
    @Test func equalityIsByValue() throws {
        let a = try #require(DecimalNumber("21.0")), b = DecimalNumber(21), c = try #require(DecimalNumber("2.1e1"))
        #expect(a == b && b == c)
        #expect(Set([a, b, c]).count == 1)
        #expect(a.description == "21.0")
        #expect(DecimalNumber(significand: 210, exponent: -1) != DecimalNumber(significand: 211, exponent: -1))
    }

    /// Plain decimal text, as written straight into a byte buffer: no exponent, the
    /// source's scale kept, a leading zero before the point.
    @Test(arguments: [("0", "0"), ("-0.05", "-0.05"), ("1200", "1200"), ("1.5e-3", "0.0015"), ("199.9", "199.9"),
                      ("-12.50", "-12.50"), ("-123456789012345678", "-123456789012345678"), ("1e-7", "0.0000001"),
                      ("3.0", "3.0"), ("1.999E+07", "19990000")])
    func plainText(text: String, expected: String) throws {
        let d = try #require(DecimalNumber(text))
        var bytes: [UInt8] = []
        d.appendText(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(d.description == expected)
    }

    @Test func kelvinToCelsiusIsExact() throws {
        let k = try #require(DecimalNumber("297.15"))
        let c = try #require(k.subtracting(DecimalNumber(significand: 27315, exponent: -2)))
        #expect(c.doubleValue == 24.0)
        #expect(try #require(DecimalNumber("273.15")).subtracting(DecimalNumber(significand: 27315, exponent: -2))?.isZero == true)
    }

    @Test func pascalToBarIsExact() throws {
        #expect(try #require(DecimalNumber("1.999E+07")).shifted(by: -5).description == "199.9")
        #expect(try #require(DecimalNumber("20022382")).shifted(by: -5).doubleValue == 200.22382)
    }

    @Test func descriptionIsPlainDecimal() throws {
        #expect(try #require(DecimalNumber("0.012")).shifted(by: 3).description == "12")
        #expect(try #require(DecimalNumber("-0.05")).description == "-0.05")
        #expect(try #require(DecimalNumber("1200")).description == "1200")
        #expect(try #require(DecimalNumber("1.5e-3")).description == "0.0015")
    }

    @Test func comparesAcrossExponents() throws {
        #expect(try #require(DecimalNumber("0.999")) < DecimalNumber(1))
        #expect(!(try #require(DecimalNumber("1.0")) < DecimalNumber(1)))
    }
}

@Suite struct DecimalOrderTests {
    @Test("order across exponents, signs and magnitudes past 18 digits")
    func order() {
        func d(_ s: String) -> DecimalNumber { DecimalNumber(s)! }
        #expect(d("1.5") < d("2"))
        #expect(d("-1") < d("0.5"))
        #expect(!(d("12.50") < d("12.5")) && !(d("12.5") < d("12.50")))
        #expect(d("0.001") < d("0.01"))
        #expect(d("-0.01") < d("-0.001"))
        #expect(d("2") < d("1e200"))
        #expect(d("-1e200") < d("-2"))
        #expect(d("283.15") < d("283.2"))
    }
}
