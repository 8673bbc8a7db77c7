<?php
// The contract's PlayerService on PHP's own SOAP engine: ext-soap's SoapServer in WSDL mode (the
// contract's WSDL), under Apache + mod_php and under Lighttpd + PHP-FPM, a new PDO connection per
// call. Validation and queries are the HTML pages' own (php/lab.php, on the include path that
// Apache and Lighttpd give this script).
declare(strict_types=1);
require 'lab.php';

// ext-soap writes an xs:double with `precision` significant digits (14 by default), so 1/3 came
// back changed; -1 writes the shortest text that reads back as the same double.
ini_set('precision', '-1');

const SERVICE_NAMESPACE = 'urn:lab';
const ENVELOPE_NAMESPACE = 'http://schemas.xmlsoap.org/soap/envelope/';
const OPERATIONS = ['getPlayer', 'findPlayers', 'firstPlayers', 'updatePlayer', 'echoStructs', 'echoList', 'echoInts',
    'echoDoubles', 'echoStrings', 'echoEmployees', 'echoImage', 'echoVoid', 'getQuote'];
const MALFORMED = 'malformed SOAP request';
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Each operation takes its wrapper element's children and returns its response wrapper's. */
final class PlayerService
{
    public function getPlayer(stdClass $request): array
    {
        $row = answer(fn () => single_query(parameters_of($request, 'id'))->fetch(PDO::FETCH_ASSOC));
        return ['getPlayerReturn' => $row === false ? null : $row];
    }

    public function findPlayers(stdClass $request): array
    {
        return ['findPlayersReturn' => answer(fn () => large_query(parameters_of($request, 'name'))->fetchAll(PDO::FETCH_ASSOC))];
    }

    public function firstPlayers(stdClass $request): array
    {
        return ['firstPlayersReturn' => answer(fn () => rows_query(parameters_of($request, 'count'))->fetchAll(PDO::FETCH_ASSOC))];
    }

    /** The row after its version was raised by one; a nil result (nothing written) when no row has the id. */
    public function updatePlayer(stdClass $request): array
    {
        return ['updatePlayerReturn' => answer(fn () => update_query(parameters_of($request, 'id')))];
    }

    public function echoStructs(stdClass $request): array
    {
        $items = Echoes::items($request, Echoes::isStruct(...));
        Echoes::finite(...array_map(fn (stdClass $item) => $item->varFloat, $items));
        return ['echoStructsReturn' => $items];
    }

    public function echoList(stdClass $request): array
    {
        $nodes = 0;
        for ($node = $request->list ?? null; $node !== null; $node = $node->next ?? null) {
            if (++$nodes > Echoes::MAX_LIST_NODES) {
                break;
            }
            if (!Echoes::isStruct($node)) {
                throw new SoapFault('Client', MALFORMED);
            }
            Echoes::finite($node->varFloat);
        }
        if ($nodes < 1 || $nodes > Echoes::MAX_LIST_NODES) {
            throw new SoapFault('Client', 'list must have 1 to ' . Echoes::MAX_LIST_NODES . ' nodes');
        }
        return ['echoListReturn' => $request->list];
    }

    public function echoInts(stdClass $request): array
    {
        return ['echoIntsReturn' => Echoes::items($request, Echoes::isInt(...))];
    }

    public function echoDoubles(stdClass $request): array
    {
        $items = Echoes::items($request, is_float(...));
        Echoes::finite(...$items);
        return ['echoDoublesReturn' => $items];
    }

    public function echoStrings(stdClass $request): array
    {
        return ['echoStringsReturn' => Echoes::items($request, is_string(...))];
    }

    public function echoEmployees(stdClass $request): array
    {
        $items = Echoes::items($request, Echoes::isEmployee(...));
        Echoes::finite(...array_map(fn (stdClass $item) => $item->salary, $items));
        return ['echoEmployeesReturn' => $items];
    }

    /** Lublin's image: its bytes, which SoapServer decoded from base64 and encodes again. */
    public function echoImage(stdClass $request): array
    {
        $image = $request->image ?? '';
        if (!is_string($image) || strlen($image) < 1 || strlen($image) > Echoes::MAX_IMAGE_BYTES) {
            throw new SoapFault('Client', 'image must be 1 to ' . Echoes::MAX_IMAGE_BYTES . ' bytes');
        }
        return ['echoImageReturn' => $image];
    }

    /** Lublin's VOID: nothing in, nothing out. */
    public function echoVoid(): array
    {
        return [];
    }

    public function getQuote(stdClass $request): array
    {
        $symbol = $request->symbol ?? '';
        if (!is_string($symbol) || !preg_match('/^[A-Z]{1,8}$/D', $symbol)) {
            throw new SoapFault('Client', 'symbol must be 1 to 8 capital letters');
        }
        return ['getQuoteReturn' => ['symbol' => $symbol] + Echoes::QUOTE];
    }
}

/** The echo operations and getQuote: no database; the caps and rules of contract/README.md. */
final class Echoes
{
    const MAX_ITEMS = 16000;
    const MAX_LIST_NODES = 64;
    const MAX_IMAGE_BYTES = 1 << 20;
    const QUOTE = ['name' => 'International Business Machines', 'lastTradeTimestamp' => '2008-06-23T16:00:00Z',
        'last' => 89.5, 'open' => 88.25, 'high' => 90.75, 'low' => 87.5, 'prevClose' => 88.0, 'change' => 1.5,
        'percentageChange' => 1.625, 'marketCap' => 1.5e11, 'peRatio' => 24.75, 'earnings' => 3.5, 'volume' => 8765432];

    /**
     * The request's items (SOAP_SINGLE_ELEMENT_ARRAYS makes one item a list too), within the cap,
     * each of the type the contract gives it: SoapServer follows an xsi:type to another type and
     * keeps an int past xs:int's range, so the checks are the contract's own.
     */
    static function items(stdClass $request, callable $isOfType): array
    {
        $items = $request->item ?? [];
        if (count($items) < 1 || count($items) > self::MAX_ITEMS) {
            throw new SoapFault('Client', 'echo takes 1 to ' . self::MAX_ITEMS . ' items');
        }
        foreach ($items as $item) {
            if (!$isOfType($item)) {
                throw new SoapFault('Client', MALFORMED);
            }
        }
        return $items;
    }

    static function isInt(mixed $value): bool
    {
        return is_int($value) && $value >= -2147483648 && $value <= 2147483647;
    }

    /** An Item or a ListNode: its three fields, each of its type. */
    static function isStruct(mixed $value): bool
    {
        return $value instanceof stdClass && self::isInt($value->varInt ?? null)
            && is_float($value->varFloat ?? null) && is_string($value->varString ?? null);
    }

    /** Infosys's Employee: its nine fields, each of its type. */
    static function isEmployee(mixed $value): bool
    {
        if (!$value instanceof stdClass || !self::isInt($value->id ?? null) || !self::isInt($value->age ?? null)
            || !is_float($value->salary ?? null) || !is_bool($value->fullTime ?? null)) {
            return false;
        }
        foreach (['firstName', 'lastName', 'email', 'department', 'title'] as $text) {
            if (!is_string($value->$text ?? null)) {
                return false;
            }
        }
        return true;
    }

    /** PHP would write NaN as NAN, which no xs:double reads: the contract refuses NaN and infinities. */
    static function finite(float ...$numbers): void
    {
        foreach ($numbers as $number) {
            if (!is_finite($number)) {
                throw new SoapFault('Client', 'numbers must be finite');
            }
        }
    }
}

/**
 * The SOAP phases as the Infosys paper timed them (lab.common.Phases is the Java engines' side): when
 * the server gives the script LAB_SOAP_PHASES (a file; the knob SOAP_PHASES), a served envelope's
 * un-marshalling (from the script receiving the request to the operation's start), business logic
 * and marshalling (from its end to the reply flushed) are appended to it in microseconds, then the
 * bytes each phase grew the request's heap by at its peak. The operation's bounds are marked by this
 * proxy in front of PlayerService, which SoapServer calls through __call; without the knob neither
 * the proxy nor the clock exists.
 */
final class PhaseClock
{
    public ?int $logicStarts = null;
    public ?int $logicEnds = null;
    /** @var int[] each finished phase's peak growth of the heap, in bytes */
    private array $grown = [];
    private int $inUse;

    public function __construct(private readonly object $service, public readonly int $received)
    {
        $this->phaseEnds();
    }

    public function __call(string $operation, array $arguments): mixed
    {
        $this->logicStarts = hrtime(true);
        $this->phaseEnds();
        try {
            return $this->service->$operation(...$arguments);
        } finally {
            $this->logicEnds = hrtime(true);
            $this->phaseEnds();
        }
    }

    /** The phase that ends now: how far its heap rose over what it began with; the next one begins. */
    private function phaseEnds(): void
    {
        if (isset($this->inUse)) {
            $this->grown[] = memory_get_peak_usage() - $this->inUse;
        }
        $this->inUse = memory_get_usage();
        memory_reset_peak_usage();
    }

    public function record(string $file): void
    {
        if ($this->logicStarts === null || $this->logicEnds === null) {
            return; // refused before its logic: no phases to tell
        }
        $sent = hrtime(true);
        $this->phaseEnds();
        file_put_contents($file, sprintf("soap-php\t%.1f\t%.1f\t%.1f\t%d\t%d\t%d\n", ($this->logicStarts - $this->received) / 1e3,
            ($this->logicEnds - $this->logicStarts) / 1e3, ($sent - $this->logicEnds) / 1e3, ...$this->grown), FILE_APPEND | LOCK_EX);
    }
}

/** The request's parameters as lab.php reads a query string's: an absent element is an absent parameter. */
function parameters_of(stdClass $request, string $name): array
{
    $parameters = [];
    foreach ([$name, 'engine'] as $parameter) {
        if (isset($request->$parameter)) {
            $parameters[$parameter] = [(string) $request->$parameter];
        }
    }
    return $parameters;
}

/** Runs a query: refused input is a Client fault with the contract's message, a database error a Server fault. */
function answer(callable $query): mixed
{
    try {
        return $query();
    } catch (Refused $e) {
        throw new SoapFault('Client', $e->getMessage());
    } catch (PDOException $e) {
        error_log('lab: database error: ' . $e->getMessage());
        throw new SoapFault('Server', 'database unavailable');
    }
}

/**
 * Why the envelope cannot be served, or null. SoapServer alone would answer these with faults of its
 * own (Server faults, PHP's wording) or dispatch an operation on its local name in any namespace; the
 * contract wants Client faults. A DTD is refused before any parsing: no entity is ever expanded.
 */
function refusal(string $envelope): ?string
{
    if ($envelope === '' || str_contains($envelope, '<!DOCTYPE')) {
        return MALFORMED;
    }
    $document = new DOMDocument();
    if (!$document->loadXML($envelope, LIBXML_NONET) || $document->doctype !== null) {
        return MALFORMED;
    }
    $body = null;
    foreach ($document->documentElement->childNodes as $child) {
        if ($child instanceof DOMElement && $child->namespaceURI === ENVELOPE_NAMESPACE && $child->localName === 'Body') {
            $body = $child;
        }
    }
    $operation = $body?->firstElementChild;
    if ($document->documentElement->namespaceURI !== ENVELOPE_NAMESPACE || $operation === null) {
        return MALFORMED;
    }
    if ($operation->namespaceURI !== SERVICE_NAMESPACE) {
        return 'operation must be in namespace ' . SERVICE_NAMESPACE;
    }
    if (!in_array($operation->localName, OPERATIONS, true)) {
        return MALFORMED;
    }
    // SoapServer reads any text as an xs:boolean ("maybe" is true): the Schema's four spellings only.
    // (One XPath count: walking getElementsByTagNameNS's live list is quadratic before PHP 8.3.)
    $xpath = new DOMXPath($document);
    $xpath->registerNamespace('lab', SERVICE_NAMESPACE);
    $notBoolean = '//lab:fullTime[. != "true" and . != "false" and . != "1" and . != "0"]';
    if ($xpath->evaluate("count($notBoolean)", $operation) > 0) {
        return MALFORMED;
    }
    // ...reads an echoVoid with elements inside as one without, where the Schema allows none...
    if ($operation->localName === 'echoVoid' && $operation->firstElementChild !== null) {
        return MALFORMED;
    }
    // ...and skips what is not base64 in an image ("not*base64!" is "notbase6"): strict base64 only.
    $image = $operation->localName === 'echoImage' ? $xpath->evaluate('string(lab:image)', $operation) : '';
    $compact = strpbrk($image, " \t\r\n") === false ? $image : preg_replace('/[ \t\r\n]+/', '', $image);
    return base64_decode($compact, true) === false ? MALFORMED : null;
}

/**
 * SoapServer answers an envelope its decoder cannot read (an element where text belongs, a value
 * that is not its type's) with a Server fault "SOAP-ERROR: Encoding: ..." and a fatal error that
 * ends the script; the contract calls that the caller's fault. The output buffer's callback still
 * runs then, and rewrites only such a fault.
 */
function as_client_fault(string $answer): string
{
    if (http_response_code() !== 500) {
        return $answer;
    }
    $rewritten = preg_replace('#<faultcode>([\w-]+):Server</faultcode><faultstring>SOAP-ERROR: [^<]*</faultstring>#',
        '<faultcode>$1:Client</faultcode><faultstring>' . MALFORMED . '</faultstring>', $answer, 1);
    if ($rewritten !== $answer) {
        header('Content-Length: ' . strlen($rewritten)); // SoapServer set the fault's own (PHP-FPM sends it)
    }
    return $rewritten;
}

/** GET ?wsdl: the contract's WSDL with this service's address; GET serves nothing else. */
function serve_wsdl(): void
{
    if (strcasecmp($_SERVER['QUERY_STRING'] ?? '', 'wsdl') !== 0) {
        header('Allow: POST');
        error_page(405, 'method not allowed');
        return;
    }
    $address = sprintf('http://%s:%s%s', $_SERVER['SERVER_ADDR'], $_SERVER['SERVER_PORT'], $_SERVER['SCRIPT_NAME']);
    header('Content-Type: text/xml; charset=utf-8');
    echo str_replace('http://127.0.0.1/PlayerService', htmlspecialchars($address, ENT_XML1), file_get_contents($_SERVER['LAB_WSDL']));
}

libxml_use_internal_errors(true);
if (in_array($_SERVER['REQUEST_METHOD'], ['GET', 'HEAD'], true)) {
    serve_wsdl();
} elseif ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    header('Allow: POST');
    error_page(405, 'method not allowed');
} else {
    $phases = ($_SERVER['LAB_SOAP_PHASES'] ?? '') === '' ? null : new PhaseClock(new PlayerService(), hrtime(true));
    $server = new SoapServer($_SERVER['LAB_WSDL'], ['cache_wsdl' => WSDL_CACHE_MEMORY, 'encoding' => 'UTF-8',
        'features' => SOAP_SINGLE_ELEMENT_ARRAYS]);
    if ($phases === null) {
        $server->setClass(PlayerService::class);
    } else {
        $server->setObject($phases);
    }
    $declared = (int) ($_SERVER['CONTENT_LENGTH'] ?? 0);
    // A length given to file_get_contents is allocated up front: read what the request declares, one
    // byte past it, or (chunked, no length) up to the cap.
    $envelope = $declared > MAX_BODY_BYTES ? '' : (string) file_get_contents('php://input', length: ($declared ?: MAX_BODY_BYTES) + 1);
    $reason = $declared > MAX_BODY_BYTES || strlen($envelope) > MAX_BODY_BYTES ? 'request body must be at most 16 MB' : refusal($envelope);
    if ($reason === null) {
        ob_start('as_client_fault');
        $server->handle($envelope);
        if ($phases !== null) {
            ob_end_flush();
            flush();
            $phases->record($_SERVER['LAB_SOAP_PHASES']);
        }
    } else {
        $server->fault('Client', $reason);
    }
}
