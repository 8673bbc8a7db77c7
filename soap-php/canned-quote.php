<?php
// The engine-less SOAP baseline (ICWS'08, Figs. 1-2): the POSTed envelope is read and dropped, and
// the answer is getQuote's canned response (contract/quote-response.xml), with no SOAP engine between.
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    http_response_code(405);
    header('Allow: POST');
    return;
}
file_get_contents('php://input');
header('Content-Type: text/xml; charset=utf-8');
readfile($_SERVER['LAB_QUOTE_RESPONSE']);
