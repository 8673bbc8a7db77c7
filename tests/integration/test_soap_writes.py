"""The update workload on every SOAP engine (contract/README.md, "SOAP shape"): each updatePlayer call
raises exactly its row's version and returns the row with it, on both engines; no such row is a nil
result; hostile parameters get the contract's Client fault; none of these write anything else. A
stock client calls it through each engine's own WSDL, as it calls the reads."""
import xml.etree.ElementTree as ET

import pytest

from harness.run import verify
from stack import lab, registry, targets
from tests.hostile_cases import LEAKS, VALUE_CASES, parameters_with

from .conftest import COLUMNS, db_rows, sample_ids, send, soap_fault

ENGINES = targets.registry()["engines"]
SOAP_APPS = [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]
UPDATE = "update"
VERSIONED = [*lab.COLUMN_NAMES, lab.VERSION_COLUMN]
MALFORMED = "malformed SOAP request"
# The single-row read's hostile values, sent to updatePlayer: the same validation, the same faults.
ID_AND_ENGINE_CASES = [case for case in VALUE_CASES if case[0] == "single"]


def version(db, engine, player_id):
    return int(db.sql(f"SELECT ver FROM lab.people_{engine} WHERE id = {int(player_id)}").strip())


def test_every_soap_engine_answers_the_update_workload_and_its_mixes():
    assert SOAP_APPS and all(registry.serves(app, UPDATE) and registry.serves(app, "mixed-10") for app in SOAP_APPS)
    assert not any(registry.serves(app, "updates-5") for app in SOAP_APPS), "updates-N has no SOAP operation"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", SOAP_APPS)
def test_each_update_player_call_raises_its_rows_version_by_one_and_returns_the_row_with_it(stack, db, app, engine):
    ids = sample_ids()
    expected = {int(row[0]): row for row in db_rows(db, engine, f"id IN ({','.join(map(str, ids))})")}
    others_before = lab.table_versions(db) - sum(version(db, engine, player_id) for player_id in ids)
    for player_id in ids:
        before = version(db, engine, player_id)
        reply = send(registry.request(app, UPDATE, id=player_id, engine=engine))
        assert reply.status == 200, (player_id, reply.body[:300])
        assert verify.soap_rows(reply.body, VERSIONED) == [[*expected[player_id], str(before + 1)]]
        assert version(db, engine, player_id) == before + 1
        assert verify.judge_answer("soap", reply.status, reply.body, [expected[player_id]], writes=True)[0]
    untouched = lab.table_versions(db) - sum(version(db, engine, player_id) for player_id in ids)
    assert untouched == others_before, "an update wrote outside its row (the other table or another id)"


@pytest.mark.parametrize("app", SOAP_APPS)
def test_an_id_no_row_has_is_a_nil_result_and_writes_nothing(stack, db, app):
    before = lab.table_versions(db)
    reply = send(registry.request(app, UPDATE, id=16001))
    assert reply.status == 200 and verify.soap_rows(reply.body, VERSIONED) == []
    result = ET.fromstring(reply.body).find(f"{verify.SOAP_ENVELOPE}Body/{{urn:lab}}updatePlayerResponse")[0]
    assert result.tag == "{urn:lab}updatePlayerReturn" and result.get(verify.XSI_NIL) in verify.NIL_VALUES
    assert lab.table_versions(db) == before


@pytest.mark.parametrize("workload,parameter,value,message", ID_AND_ENGINE_CASES,
                         ids=[f"{c[1]}={c[2][:30]!r}" for c in ID_AND_ENGINE_CASES])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_hostile_ids_and_engines_get_the_contracts_client_fault_and_write_nothing(stack, db, app, workload, parameter,
                                                                                  value, message):
    before = lab.table_versions(db)
    reply = send(registry.request(app, UPDATE, **parameters_with(workload, parameter, value)))
    assert not [leak for leak in LEAKS if leak in reply.body], reply.body[:300]
    # XML 1.0 cannot carry U+0000: such an envelope is malformed before any parameter is read.
    assert soap_fault(reply) == ("Client", MALFORMED if "\u0000" in value else message)
    assert lab.table_versions(db) == before


@pytest.mark.parametrize("app", SOAP_APPS)
def test_a_wsdl_driven_client_updates_a_player_and_reads_its_version(stack, db, app):
    """zeep builds the call from the engine's own WSDL: the VersionedPlayer type as each engine serves it."""
    zeep = pytest.importorskip("zeep")
    client = zeep.Client(f"http://127.0.0.1:{registry.port_of(app)}{registry.app(app)['wsdl']}")
    before = version(db, "innodb", 4242)
    player = client.service.updatePlayer(id="4242", engine="innodb")
    assert [str(player[column]) for column in COLUMNS] == db_rows(db, "innodb", "id = 4242")[0]
    assert player["ver"] == before + 1 == version(db, "innodb", 4242)
    with pytest.raises(zeep.exceptions.Fault) as refused:
        client.service.updatePlayer(id="4242", engine="memory")
    assert refused.value.message == "engine must be myisam or innodb"
    assert version(db, "innodb", 4242) == before + 1
