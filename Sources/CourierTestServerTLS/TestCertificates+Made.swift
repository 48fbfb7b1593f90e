// Made by Tests/make-certificates: test keys, published here, to be trusted by nothing but the tests.
// Run the script again instead of editing this file.

extension TestCertificates {
    /// The certificates ``TestCertificates`` describes.
    public static let shared = TestCertificates(
        authority: """
            -----BEGIN CERTIFICATE-----
            MIIBXzCCAQSgAwIBAgIUbxzgGCXr0LQb5yOWLX1YNs6XiOQwCgYIKoZIzj0EAwIw
            GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMCAXDTE5MDYwMTAwMDAwMFoYDzIx
            MTkwNjAxMDAwMDAwWjAaMRgwFgYDVQQDDA9Db3VyaWVyIFRlc3QgQ0EwWTATBgcq
            hkjOPQIBBggqhkjOPQMBBwNCAARaUAfCooLw6YRPaypkY3TTHZsSuuWYYYOeS35G
            E3RTs/eed4zMK4+ZsY2GYaQtyKS458YzeP4Y5mqoic2JxwIHoyYwJDASBgNVHRMB
            Af8ECDAGAQH/AgEAMA4GA1UdDwEB/wQEAwIBBjAKBggqhkjOPQQDAgNJADBGAiEA
            n1esYJu/eUhiot+QQsgZRu5hGJNMZsXuqCX+dnYWl98CIQCSp3GK34PqAqjDlJOu
            ykIPDwylhKm3b/7pW58gpNiMeA==
            -----END CERTIFICATE-----
            """,
        trusted: TestIdentity(
            certificate: """
                -----BEGIN CERTIFICATE-----
                MIIBgzCCASmgAwIBAgIUG0M7Z8HK7ECGYA96hD3lNbjTSgIwCgYIKoZIzj0EAwIw
                GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMCAXDTE5MDYwMTAwMDAwMFoYDzIx
                MTkwNjAxMDAwMDAwWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIB
                BggqhkjOPQMBBwNCAATU/3nRKxTh6E1J06+EjEn7PQjlAs4svBkWS8OBkLui2mr1
                1LOHAny0Wg9RyuQ7gGaYOk6XQOhuE0umM1jJO7TMo1EwTzAMBgNVHRMBAf8EAjAA
                MA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAaBgNVHREEEzAR
                gglsb2NhbGhvc3SHBH8AAAEwCgYIKoZIzj0EAwIDSAAwRQIgAcugoQLKnJ1xKQim
                E8cM/wFL0gwUFlRzfGnI0QHL4+ECIQCp7Q3uqiXi7lKqGDIix6amww3d7IFJDUKI
                rCI9VBZKxQ==
                -----END CERTIFICATE-----
                """,
            privateKey: """
                -----BEGIN PRIVATE KEY-----
                MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQguO2vbRRqeSXpd5Gd
                1d0ZaknM/I3P4hQlf4avHRXXBo+hRANCAATU/3nRKxTh6E1J06+EjEn7PQjlAs4s
                vBkWS8OBkLui2mr11LOHAny0Wg9RyuQ7gGaYOk6XQOhuE0umM1jJO7TM
                -----END PRIVATE KEY-----
                """,
            publicKeyPin: "WrSU/Dt8Fi09JblIeriavaV2by6aXwa2ByksV/7MqdI="
        ),
        expired: TestIdentity(
            certificate: """
                -----BEGIN CERTIFICATE-----
                MIIBjDCCATGgAwIBAgIUdykNlfQW3FgruY2pV1jKZqpisewwCgYIKoZIzj0EAwIw
                GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMB4XDTE5MDYwMTAwMDAwMFoXDTE5
                MDYwMjAwMDAwMFowHjEcMBoGA1UEAwwTMTI3LjAuMC4xIChleHBpcmVkKTBZMBMG
                ByqGSM49AgEGCCqGSM49AwEHA0IABLRjmgfBdqN+iszBOjbW+yxacVF0Vuj85+BE
                gjKLx8RVyBrKm2PT+dTpNsQgzbzZTeg5zyjGm3wexWBKNDlbJjSjUTBPMAwGA1Ud
                EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMBoG
                A1UdEQQTMBGCCWxvY2FsaG9zdIcEfwAAATAKBggqhkjOPQQDAgNJADBGAiEA1ugi
                Q5/7vohYgDgiJ6XMUl9uTynAIXuwgSdpo1rOTbQCIQDFgOnGSetAP0M065vZrTjC
                hnXswttB6orpjuJ3+prfZA==
                -----END CERTIFICATE-----
                """,
            privateKey: """
                -----BEGIN PRIVATE KEY-----
                MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgwAeV5EBDKyMLXI3E
                tS+HF64ZVHZ0Pw5UKTlhK3FBkHGhRANCAAS0Y5oHwXajforMwTo21vssWnFRdFbo
                /OfgRIIyi8fEVcgayptj0/nU6TbEIM282U3oOc8oxpt8HsVgSjQ5WyY0
                -----END PRIVATE KEY-----
                """,
            publicKeyPin: "bjZMWhfNpZZUgeMTqfxXPZxzSH57f4dx8koUKAadasQ="
        ),
        wrongHost: TestIdentity(
            certificate: """
                -----BEGIN CERTIFICATE-----
                MIIBjDCCATOgAwIBAgIUJAw/3WZJhnEpybMr/4KbSmbngHcwCgYIKoZIzj0EAwIw
                GjEYMBYGA1UEAwwPQ291cmllciBUZXN0IENBMCAXDTE5MDYwMTAwMDAwMFoYDzIx
                MTkwNjAxMDAwMDAwWjAcMRowGAYDVQQDDBF3cm9uZy5leGFtcGxlLmNvbTBZMBMG
                ByqGSM49AgEGCCqGSM49AwEHA0IABPQ+eS5cBYBf5G6+zn9tCnqvZiglSkAIv8WK
                QMMDxiNYzG3dS/O/mDE5k1AbD3QpQiVqif20DfxyCx1c7c4VIDOjUzBRMAwGA1Ud
                EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMBwG
                A1UdEQQVMBOCEXdyb25nLmV4YW1wbGUuY29tMAoGCCqGSM49BAMCA0cAMEQCIGM1
                NttR5EbQXkNBWEQ5Yfh/pOl8mo3oT2x15wnapSD2AiBNf6Um+XE9M083rsR5EtPw
                y3jySDYu0/f9f8/8Q43ZPQ==
                -----END CERTIFICATE-----
                """,
            privateKey: """
                -----BEGIN PRIVATE KEY-----
                MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgwiInTRDPONDnzYZB
                rrdx6yusOVsh+U0Eix9LKdh8Ub6hRANCAAT0PnkuXAWAX+Ruvs5/bQp6r2YoJUpA
                CL/FikDDA8YjWMxt3Uvzv5gxOZNQGw90KUIlaon9tA38cgsdXO3OFSAz
                -----END PRIVATE KEY-----
                """,
            publicKeyPin: "N/BD7LgDE8l7pLCmxdMuXtibjQdrv2ePNmOAOT5jEBU="
        ),
        clientAuthority: """
            -----BEGIN CERTIFICATE-----
            MIIBbTCCARKgAwIBAgIUBtC7RNWPb1hv6Kr/wcT9Zgo8wG4wCgYIKoZIzj0EAwIw
            ITEfMB0GA1UEAwwWQ291cmllciBUZXN0IENsaWVudCBDQTAgFw0xOTA2MDEwMDAw
            MDBaGA8yMTE5MDYwMTAwMDAwMFowITEfMB0GA1UEAwwWQ291cmllciBUZXN0IENs
            aWVudCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKycId3lBeQ97CAN3dIv
            KYjxYEILEenwN8tStJbKrKvhtuAVil8SzUwnJkEtVhAD2AWI12e9BXNLiKgsyqPO
            2PKjJjAkMBIGA1UdEwEB/wQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMAoGCCqG
            SM49BAMCA0kAMEYCIQCwSlSGKTWQlGHGvDszczcg1E1D1I3ArQHWHWE44Pwz4wIh
            AIRLcWAP3JeZNYhjbgkH/n8af2GxqboZ0gLtElVvXpyh
            -----END CERTIFICATE-----
            """,
        client: TestIdentity(
            certificate: """
                -----BEGIN CERTIFICATE-----
                MIIBmDCCAT6gAwIBAgIUN4F8vB+a4W/pXXOVXSIgulMjM4EwCgYIKoZIzj0EAwIw
                ITEfMB0GA1UEAwwWQ291cmllciBUZXN0IENsaWVudCBDQTAgFw0xOTA2MDEwMDAw
                MDBaGA8yMTE5MDYwMTAwMDAwMFowHjEcMBoGA1UEAwwTQ291cmllciBUZXN0IENs
                aWVudDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABCdCiW00CpNFcC3rsifja03y
                F6F4t4mI09pG5Opk+YCaosILwpDP6nqxTzgQBKZYPND04abnjkcBTTmdgLUBO4mj
                VTBTMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsG
                AQUFBwMCMB4GA1UdEQQXMBWCE2NsaWVudC5jb3VyaWVyLnRlc3QwCgYIKoZIzj0E
                AwIDSAAwRQIhAIPw7pZhmABebBjqwbfzr8pWOf9esL9w1RMVGz/eNtVKAiAPQBvO
                qK+6I2JjeiC2Ecl4bZgY5mcVIC0N2KGeX8sIug==
                -----END CERTIFICATE-----
                """,
            privateKey: """
                -----BEGIN PRIVATE KEY-----
                MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnzm2r6dlYl5Bfau4
                iGSSPRTxeSNID+YWZP2QocdcajWhRANCAAQnQoltNAqTRXAt67In42tN8heheLeJ
                iNPaRuTqZPmAmqLCC8KQz+p6sU84EASmWDzQ9OGm545HAU05nYC1ATuJ
                -----END PRIVATE KEY-----
                """,
            publicKeyPin: "MxNtuxnKgemkyTmB2bKNVBDSJDVihavbU7N+yUylb7w="
        )
    )
}
