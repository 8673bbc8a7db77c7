package lab.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What reaches a SOAP engine: the service's POSTed envelopes and its WSDL, nothing else. */
class SoapServiceOnlyTest {
    private static final Set<String> SERVICE = Collections.singleton(Contract.SERVICE_PATH);

    @Test
    void envelopesAndTheWsdlGoThrough() {
        assertEquals(0, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "POST", null));
        assertEquals(0, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "GET", "wsdl"));
        assertEquals(0, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "HEAD", "WSDL"));
    }

    @Test
    void anotherPathIsNotFound() {
        assertEquals(404, SoapServiceOnly.refusal(SERVICE, "/AdminService", "POST", null));
        assertEquals(404, SoapServiceOnly.refusal(SERVICE, "/PlayerService/", "GET", "wsdl"));
        assertEquals(404, SoapServiceOnly.refusal(SERVICE, null, "GET", null));
    }

    @Test
    void anyOtherMethodOrQueryIsNotAllowed() {
        assertEquals(405, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "GET", null));
        assertEquals(405, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "GET", "method=getPlayer&id=1"));
        assertEquals(405, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "PUT", null));
        assertEquals(405, SoapServiceOnly.refusal(SERVICE, "/PlayerService", "DELETE", "wsdl"));
    }

    @Test
    void onlyTheContractsNamespaceHoldsOperations() {
        assertEquals(null, Contract.operationNamespaceProblem(Contract.NAMESPACE));
        assertEquals("operation must be in namespace urn:lab", Contract.operationNamespaceProblem("urn:other"));
        assertEquals("operation must be in namespace urn:lab", Contract.operationNamespaceProblem(null));
    }
}
