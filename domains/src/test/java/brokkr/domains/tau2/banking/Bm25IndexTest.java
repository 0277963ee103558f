package brokkr.domains.tau2.banking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.python.PyException;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The BM25 index against the facts upstream's built index reported (conformance/tau2/banking_knowledge/kb-bm25-index.json). */
class Bm25IndexTest {
    static BankingDomain domain;
    static PyDict facts;

    @BeforeAll
    static void load() {
        domain = new BankingDomain(new Tau2Data(SharedDirs.tau2Data()));
        facts = Json.read(SharedDirs.conformance("banking_knowledge", "kb-bm25-index.json"))
                .asDict();
    }

    @Test
    void statisticsAreUpstreamsToTheLastBit() {
        Bm25Index ix = domain.knowledgeBase().index();
        assertEquals(((PyInt) facts.get("corpus_size")).longValue(), ix.size());
        assertEquals(((PyInt) facts.get("total_tokens")).longValue(), ix.totalTokens());
        assertEquals(((PyInt) facts.get("vocabulary_size")).longValue(), ix.vocabularySize());
        assertEquals(facts.get("avgdl_repr").asStr(), Double.toString(ix.avgdl()));
        assertEquals(((PyFloat) facts.get("average_idf")).value(), ix.averageIdf(), 0.0);
        double eps = ((PyFloat) facts.get("idf_floor_eps")).value();
        for (Value w : facts.get("floored_words").asList()) assertEquals(eps, ix.idf(w.asStr()), 0.0, w.asStr());
        assertNull(ix.idf("no-such-token-anywhere"));
    }

    @Test
    void documentsAreIndexedInTheOraclesOrder() {
        List<String> ids = domain.knowledgeBase().docs().stream()
                .map(KnowledgeBase.Doc::id)
                .toList();
        List<String> expected = facts.get("doc_order").asList().stream()
                .map(v -> v.asDict().get("id").asStr())
                .toList();
        assertEquals(expected, ids);
        // a query matching nothing lists the first 10 documents of that order, each scoring 0.0000
        List<KnowledgeBase.Hit> hits = domain.knowledgeBase().retrieve(new PyStr("zzqx-nothing"), PyInt.of(10));
        assertEquals(
                List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
                hits.stream().map(KnowledgeBase.Hit::doc).toList());
        assertTrue(domain.knowledgeBase().format(hits).contains("   Score: 0.0000\n"));
    }

    @Test
    void topKFollowsPythonsMinAndSlicing() {
        KnowledgeBase kb = domain.knowledgeBase();
        PyStr q = new PyStr("credit card annual fee");
        assertEquals(8, kb.retrieve(q, PyInt.of(-690)).size());
        assertEquals(1, kb.retrieve(q, PyBool.TRUE).size());
        assertEquals(698, kb.retrieve(q, PyInt.of(5000)).size());
        assertEquals(
                "slice indices must be integers or None or have an __index__ method",
                assertThrows(PyException.class, () -> kb.retrieve(q, new PyFloat(2.5)))
                        .str());
        assertEquals(
                "'<' not supported between instances of 'int' and 'str'",
                assertThrows(PyException.class, () -> kb.retrieve(q, new PyStr("5")))
                        .str());
        assertEquals(
                "No relevant documents found." + KnowledgeBase.TIMING, kb.kbSearch(new PyStr(" \u3000"), PyInt.of(10)));
        assertEquals(
                "'int' object has no attribute 'strip'",
                assertThrows(PyException.class, () -> kb.kbSearch(PyInt.of(3), PyInt.of(10)))
                        .str());
    }
}
