/// The first suite `paycheck init --provider P` writes for each provider: a payment through its whole flow on the
/// embedded mock, and a wrong credential refused. Each passes as written (`Tests/PayCheckCommandsTests/ScaffoldTests.swift`).
extension Scaffold {
    /// The providers init scaffolds a first suite for, in the order `--help` lists them.
    package static let smokeProviders = ["placetopay", "mollie", "khipu", "yuno", "mit"]

    /// The first suite for `provider`.
    static func smokeSuite(_ provider: String) -> String {
        let header = """
            # yaml-language-server: $schema=../paycheck.schema.json
            # A first conformance suite: edit it, then add your own cases. Reference: PayCheck's README and
            # docs/providers/\(provider).md.

            """
        switch provider {
        case "mollie": return header + mollieSmoke
        case "khipu": return header + khipuSmoke
        case "yuno": return header + yunoSmoke
        case "mit": return header + mitSmoke
        default: return header + placetopaySmoke
        }
    }

    static let placetopaySmoke = """
        suite: My shop · PlacetoPay smoke test
        provider: placetopay
        vars:
          reference: "ORDER-{{ random(8) }}"
        cases:
          - name: an approved card payment ends APPROVED and maps to succeeded
            requires: [mock]
            steps:
              - call: createSession
                with:
                  payment: { reference: "{{ reference }}", description: Smoke test, amount: { currency: COP, total: 10000 } }
                  returnUrl: https://shop.example/return
                expect: { status: 200, body: { status.status: OK, requestId: { type: integer } } }
                capture: { requestId: body.requestId }
              - payer: pay
                with: { requestId: "{{ requestId }}", card: "4110760000000081" }
                expect: { outcome: succeeded }
              - call: querySession
                with: { requestId: "{{ requestId }}" }
                expect: { outcome: succeeded, body: { status.status: APPROVED } }

          - name: a wrong secret key is refused with 401 and auth code 102
            steps:
              - call: createSession
                auth: { secretKey: not-the-secret }
                with:
                  payment: { reference: "{{ reference }}-x", description: Smoke test, amount: { currency: COP, total: 10000 } }
                  returnUrl: https://shop.example/return
                expect: { status: 401, error: { class: A, code: 102 } }

        """

    static let mollieSmoke = """
        suite: My shop · Mollie smoke test
        provider: mollie
        cases:
          - name: a payment the payer pays in test mode ends paid and maps to succeeded
            requires: [mock]
            steps:
              - call: createPayment
                with: { amount: { currency: EUR, value: "10.00" }, description: Smoke test, redirectUrl: https://shop.example/return }
                expect: { status: 201, outcome: pending, body: { status: open } }
                capture: { id: body.id }
              - payer: choose
                with: { id: "{{ id }}", status: paid }
                expect: { outcome: succeeded }
              - call: getPayment
                with: { id: "{{ id }}" }
                expect: { outcome: succeeded, body: { status: paid } }

          - name: a wrong API key is refused with 401
            steps:
              - call: listPayments
                auth: { apiKey: not-a-key }
                expect: { status: 401, error: { class: A, code: "401" } }

        """

    static let khipuSmoke = """
        suite: My shop · khipu smoke test
        provider: khipu
        cases:
          - name: a transfer khipu reconciles ends done and maps to succeeded
            requires: [mock]
            steps:
              - call: createPayment
                with: { subject: Smoke test, currency: CLP, amount: 5000 }
                expect: { status: 200, body: { payment_id: { type: string } } }
                capture: { id: body.payment_id }
              - payer: pay
                with: { payment_id: "{{ id }}" }
                expect: { outcome: pending, body: { payment.status: verifying } }
              # khipu reconciles the transfer 30 s later: the mock's clock moves, no real waiting.
              - mock: clock
                with: { advance: 31s }
              - call: getPayment
                with: { payment_id: "{{ id }}" }
                expect: { outcome: succeeded, body: { status: done } }

          - name: a wrong API key is refused with 401
            steps:
              - call: createPayment
                auth: { apiKey: not-the-key }
                with: { subject: Smoke test, currency: CLP, amount: 5000 }
                expect: { status: 401, error: { class: A } }

        """

    static let yunoSmoke = """
        suite: My shop · Yuno smoke test
        provider: yuno
        vars:
          order: "ORDER-{{ random(8) }}"
        cases:
          - name: a card payment through a checkout session ends SUCCEEDED and maps to succeeded
            steps:
              - call: createCheckoutSession
                with: { merchant_order_id: "{{ order }}", payment_description: Smoke test, country: CO, amount: { currency: COP, value: 52000 } }
                expect: { status: 200 }
                capture: { session: body.checkout_session }
              # What the SDK does with the card the payer types in: a one-time token.
              - call: createOneTimeToken
                with: { checkout_session: "{{ session }}", payment_method: { type: CARD, card: { number: "4507990000000002", expiration_month: 11, expiration_year: 28, security_code: "123", holder_name: John Doe } } }
                expect: { status: 201 }
                capture: { token: body.token }
              - call: createPayment
                with:
                  idempotencyKey: "{{ uuid() }}"
                  description: Smoke test
                  country: CO
                  merchant_order_id: "{{ order }}"
                  amount: { currency: COP, value: 52000 }
                  checkout: { session: "{{ session }}" }
                  payment_method: { token: "{{ token }}" }
                expect: { status: 201, outcome: succeeded, body: { status: SUCCEEDED } }

          - name: missing keys are refused with 401 INVALID_CREDENTIALS
            steps:
              - call: createCheckoutSession
                auth: { omit: true }
                with: { merchant_order_id: "{{ order }}", payment_description: Smoke test, country: CO }
                expect: { status: 401, error: { class: A, code: INVALID_CREDENTIALS } }

        """

    static let mitSmoke = """
        suite: My shop · MIT WebPay Plus smoke test
        provider: mit
        vars:
          reference: "ORDER-{{ random(8) }}"
        cases:
          - name: a payment link the payer pays ends approved and maps to succeeded
            requires: [mock]
            steps:
              - call: generateLink
                with: { reference: "{{ reference }}", amount: "100.00", moneda: MXN }
                expect: { status: 200, outcome: pending }
                capture: { url: body.P_RESPONSE.nb_url }
              - payer: pay
                with: { url: "{{ url }}", result: approved }
                expect: { outcome: succeeded, body: { reference: "{{ reference }}" } }

          - name: a wrong password is refused with code 03
            steps:
              - call: generateLink
                auth: { password: not-the-password }
                with: { reference: "{{ reference }}-x", amount: "100.00" }
                expect: { error: { code: "03" } }

        """
}
