<?php
// Runs PlacetoPay's official PHP SDK (dnetix/redirection), unchanged, against a standalone `paycheck mock` on the
// default site: create, query, pay (through the mock's payer control), query approved, reverse, and read a
// notification. Usage: php placetopay_php_sdk.php SDK_SRC_DIR BASE_URL (see scripts/check-php-sdk.sh).
declare(strict_types=1);

[$script, $sdk, $base] = $argv + [null, null, null];
if (!$sdk || !$base) {
    fwrite(STDERR, "usage: php placetopay_php_sdk.php SDK_SRC_DIR MOCK_BASE_URL\n");
    exit(2);
}
require_once '/usr/share/php/GuzzleHttp/autoload.php';
require_once '/usr/share/php/Psr/Log/autoload.php';
spl_autoload_register(function (string $class) use ($sdk): void {
    $prefix = 'Dnetix\\Redirection\\';
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        $file = $sdk . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

$failures = 0;
function check(string $name, bool $ok, string $detail = ''): void
{
    global $failures;
    echo ($ok ? 'ok   ' : 'FAIL ') . $name . ($detail !== '' ? " ($detail)" : '') . "\n";
    if (!$ok) {
        $failures++;
    }
}

function control(string $base, string $path, array $body): array
{
    $context = stream_context_create(['http' => [
        'method' => 'POST', 'header' => "Content-Type: application/json\r\n", 'content' => json_encode($body),
        'ignore_errors' => true,
    ]]);
    return json_decode((string) file_get_contents($base . $path, false, $context), true) ?? [];
}

$placetopay = new Dnetix\Redirection\PlacetoPay([
    'login' => 'paycheck-test',
    'tranKey' => 'paycheck-test-secret-key',
    'baseUrl' => $base . '/placetopay',
    'timeout' => 10,
]);

$reference = 'PHP_' . time();
$response = $placetopay->request([
    'locale' => 'es_CO',
    'payer' => ['name' => 'Kellie', 'surname' => 'Yost', 'email' => 'flowe@anderson.com', 'documentType' => 'CC',
        'document' => '1848839248', 'mobile' => '3006108300'],
    'payment' => ['reference' => $reference, 'description' => 'PHP SDK purchase',
        'amount' => ['currency' => 'COP', 'total' => 165000,
            'taxes' => [['kind' => 'valueAddedTax', 'amount' => 26345, 'base' => 138655]]]],
    'expiration' => date('c', strtotime('+2 days')),
    'returnUrl' => 'https://merchant.test/response?reference=' . $reference,
    'ipAddress' => '127.0.0.1',
    'userAgent' => 'PHPUnit',
]);
check('create session (SHA-1 tranKey on the default site)', $response->isSuccessful(), $response->status()->message());
$requestId = (int) $response->requestId();
check('processUrl', str_contains((string) $response->processUrl(), '/placetopay/session/'));

$information = $placetopay->query($requestId);
check('query pending', $information->isSuccessful() && $information->status()->status() === 'PENDING',
    $information->status()->message());

$paid = control($base, '/__paycheck/placetopay/payer/pay', ['requestId' => $requestId, 'card' => '4110760000000081']);
check('payer paid through the mock control', ($paid['session']['status'] ?? '') === 'APPROVED');

$information = $placetopay->query($requestId);
check('query approved', $information->status()->isApproved(), $information->status()->message());
$transaction = $information->lastApprovedTransaction();
check('approved transaction', $transaction !== null && $transaction->isApproved(),
    $transaction ? 'internalReference ' . $transaction->internalReference() : '');

$reverse = $placetopay->reverse((string) $transaction->internalReference());
check('reverse', $reverse->isSuccessful() && $reverse->status()->status() === 'APPROVED',
    $reverse->status()->message());
check('refunded after reverse', $placetopay->query($requestId)->lastTransaction()->refunded());

$notifications = control($base, '/__paycheck/placetopay/mock/notifications', ['requestId' => $requestId]);
echo "note: the default site has no notification URL; notifications: " . ($notifications['count'] ?? 0) . "\n";

$unknown = $placetopay->query(999999);
check('unknown session is not successful', !$unknown->isSuccessful(), $unknown->status()->message());

exit($failures === 0 ? 0 : 1);
