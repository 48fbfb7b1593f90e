// Made by Tests/make-certificates: test keys, published here, to be trusted by nothing but the tests.
// Run the script again instead of editing this file.

extension TestCertificates {
    /// The certificates ``TestCertificates`` describes.
    public static let shared = TestCertificates(
        authority: """
        -----BEGIN CERTIFICATE-----
        MIIBXTCCAQSgAwIBAgIUXQyDbbUpjgr5At1L3zGY+0B4l2YwCgYIKoZIzj0EAwIw
        GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMCAXDTE5MDYwMTAwMDAwMFoYDzIx
        MTkwNjAxMDAwMDAwWjAaMRgwFgYDVQQDDA9Db3VyaWVyIFRlc3QgQ0EwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAAQoLzZ/JknaWCLgpT7RCnna3aQDQtyO9FAG8nht
        i8dWJfs1kNn5KP4T1AosKS0nSoOJweQsU3R8pVgeJ+nOdZx7oyYwJDASBgNVHRMB
        Af8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBBjAKBggqhkjOPQQDAgNHADBEAiBN
        ui+kIzMjCUxQ+SSKdgAIr9uYbud0+VPFMfb5W2V7KwIgWE97jFoYgzhqxDLJUVE9
        nr74YkZOiCcH8Jc/cu70o6w=
        -----END CERTIFICATE-----
        """,
        trusted: TestIdentity(
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIBgjCCASmgAwIBAgIUYRcnwpS+SWFJG40TRl+N4kZHOw0wCgYIKoZIzj0EAwIw
            GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMCAXDTE5MDYwMTAwMDAwMFoYDzIx
            MTkwNjAxMDAwMDAwWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIB
            BggqhkjOPQMBBwNCAAR/TPFrnajcoWCdqIEr4WJRXgutqALWOAkUS916QHuJxcr7
            51QF2ArxkLQuAAdMl54m5eUxI6ub87W7XJIp7UHro1EwTzAMBgNVHRMBAf8EAjAA
            MA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAaBgNVHREEEzAR
            gglsb2NhbGhvc3SHBH8AAAEwCgYIKoZIzj0EAwIDRwAwRAIgEAZulMzh+yK3UENa
            QZpdBTUXpRtbXLvxYIazeRcEingCIDo8txtHzFDHHah4fkWsb5eOf5VdIiO+shTe
            swXKFmgg
            -----END CERTIFICATE-----
            """,
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUc9GwTevO7AYx1BJ
            4UWJ2xUpDK+KReg0MTK9NCySGU2hRANCAAR/TPFrnajcoWCdqIEr4WJRXgutqALW
            OAkUS916QHuJxcr751QF2ArxkLQuAAdMl54m5eUxI6ub87W7XJIp7UHr
            -----END PRIVATE KEY-----
            """
        ),
        expired: TestIdentity(
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIBjDCCATGgAwIBAgIURZyXTImU5HUweFtOR8tFXbBwooIwCgYIKoZIzj0EAwIw
            GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMB4XDTE5MDYwMTAwMDAwMFoXDTE5
            MDYwMjAwMDAwMFowHjEcMBoGA1UEAwwTMTI3LjAuMC4xIChleHBpcmVkKTBZMBMG
            ByqGSM49AgEGCCqGSM49AwEHA0IABKwMw5sTuemmmGh24pQYUY2zHCeL0WD0gy+P
            3sDfVWgDY4tZ+Jz7749T2Nykn/QJ/vnhKh4zVOSuB+IMiIDEGaCjUTBPMAwGA1Ud
            EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMBoG
            A1UdEQQTMBGCCWxvY2FsaG9zdIcEfwAAATAKBggqhkjOPQQDAgNJADBGAiEApu6x
            5M6zpTipsxg39fxmeOH1hssg7P5fVkAjxsae5SgCIQDf0PTGOsYMvMPNTd6RbVQV
            B/Nl+e3T+e+GFywzlMCltQ==
            -----END CERTIFICATE-----
            """,
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgDXpF8Fri5oKgfaaX
            /A6Ea2fGy5XH0fjCq5/o8tJTEUyhRANCAASsDMObE7nppphoduKUGFGNsxwni9Fg
            9IMvj97A31VoA2OLWfic+++PU9jcpJ/0Cf754SoeM1TkrgfiDIiAxBmg
            -----END PRIVATE KEY-----
            """
        ),
        wrongHost: TestIdentity(
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIBjTCCATOgAwIBAgIUK4DnBejkfNRgiSt019yWJ/tr/fAwCgYIKoZIzj0EAwIw
            GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMCAXDTE5MDYwMTAwMDAwMFoYDzIx
            MTkwNjAxMDAwMDAwWjAcMRowGAYDVQQDDBF3cm9uZy5leGFtcGxlLmNvbTBZMBMG
            ByqGSM49AgEGCCqGSM49AwEHA0IABED3a9/u3eoBoUyweIqftZ+CovHiYF77l6hg
            YKM0+gn+9YVdPK7VP/GSRtH6l3JDVa+R2sz/LmdTLjQXg43m49+jUzBRMAwGA1Ud
            EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMBwG
            A1UdEQQVMBOCEXdyb25nLmV4YW1wbGUuY29tMAoGCCqGSM49BAMCA0gAMEUCIGaK
            tkrTzJrfNF07ibwj7+QVUNaM1YOQW0ENPyRG0NBwAiEAlxEZssx697/xD4eUVKYB
            FmzbMkzfvLUMTRn9UHWlN4o=
            -----END CERTIFICATE-----
            """,
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgB5N+yiebApcqVrbY
            Bu/QDTKcl006NiGp6vIkjxSXksWhRANCAARA92vf7t3qAaFMsHiKn7WfgqLx4mBe
            +5eoYGCjNPoJ/vWFXTyu1T/xkkbR+pdyQ1WvkdrM/y5nUy40F4ON5uPf
            -----END PRIVATE KEY-----
            """
        ),
        clientAuthority: """
        -----BEGIN CERTIFICATE-----
        MIIBbDCCARKgAwIBAgIUGGHVm0909/Yi5GY24NuNYR78498wCgYIKoZIzj0EAwIw
        ITEfMB0GA1UEAwwWQ291cmllciBUZXN0IENsaWVudCBDQTAgFw0xOTA2MDEwMDAw
        MDBaGA8yMTE5MDYwMTAwMDAwMFowITEfMB0GA1UEAwwWQ291cmllciBUZXN0IENs
        aWVudCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABGWX2cyJx1nVtQrhDu8C
        LjTVoBvjwsR1o4rL9fnTI68CQ8/Vyb1Cts7oCZf6opu3WX1s8SPYFrwsF/NU3kOP
        xxmjJjAkMBIGA1UdEwEB/wQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMAoGCCqG
        SM49BAMCA0gAMEUCICc0nGOUlK2B8lo1RfimHHDLO1FGL4KOUC4J8zBmWB9vAiEA
        g9kF2cyRD/obzguD3GD/HpndIqRsICeaBhDEt8MW8iI=
        -----END CERTIFICATE-----
        """,
        client: TestIdentity(
            certificate: """
            -----BEGIN CERTIFICATE-----
            MIIBmTCCAT6gAwIBAgIUFzRMdbzR5vakEC/fzVNkdIHUetowCgYIKoZIzj0EAwIw
            ITEfMB0GA1UEAwwWQ291cmllciBUZXN0IENsaWVudCBDQTAgFw0xOTA2MDEwMDAw
            MDBaGA8yMTE5MDYwMTAwMDAwMFowHjEcMBoGA1UEAwwTQ291cmllciBUZXN0IENs
            aWVudDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABJMB+cbBB/JD4/bJIk2ZRi//
            546WtqW1HK3EJaGm6akAexkhKm+QFGQTn375MDLI7EI9FQt9OmN+P8/eqwyh2vKj
            VTBTMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsG
            AQUFBwMCMB4GA1UdEQQXMBWCE2NsaWVudC5jb3VyaWVyLnRlc3QwCgYIKoZIzj0E
            AwIDSQAwRgIhAJto2dEXrPNkGmH89cgnkhg27E/Vsvmx8hWlWqKMoXsjAiEAoIlV
            IXG12bJmnJhm1jiKuYgvJq9BxxkDAhjcYScfSRQ=
            -----END CERTIFICATE-----
            """,
            privateKey: """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgjPkT8MbDRfAFfXQz
            ocWR2s2GSMZ46dIveajNfiJCRbahRANCAASTAfnGwQfyQ+P2ySJNmUYv/+eOlral
            tRytxCWhpumpAHsZISpvkBRkE59++TAyyOxCPRULfTpjfj/P3qsModry
            -----END PRIVATE KEY-----
            """
        )
    )
}
