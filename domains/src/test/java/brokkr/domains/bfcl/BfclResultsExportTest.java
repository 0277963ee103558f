package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The score table's arithmetic as gorilla's {@code eval_runner_helper} does it. Expected values were printed by
 * CPython 3 ({@code statistics.mean}, {@code statistics.stdev}, {@code "{:.2f}%".format}) and numpy 2.4.6
 * ({@code np.percentile(xs, 95)}).
 */
class BfclResultsExportTest {
    static final List<Double> XS = List.of(0.731, 1.204, 0.552, 2.019, 0.998, 1.5, 0.612);
    static final List<Double> YS = List.of(
            0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1);

    @Test
    void latencyStatisticsArePythons() {
        assertEquals(1.088, BfclResultsExport.mean(XS), 0.0);
        assertEquals(0.532193886974788, BfclResultsExport.stdev(XS), 0.0);
        assertEquals(1.8632999999999997, BfclResultsExport.percentile95(XS), 0.0);
        assertEquals(1.1, BfclResultsExport.mean(YS), 0.0);
        assertEquals(0.6204836822995429, BfclResultsExport.stdev(YS), 0.0);
        assertEquals(2.0, BfclResultsExport.percentile95(YS), 0.0);
    }

    @Test
    void sortKeyIsTheUniversalIndex() {
        assertEquals(19, BfclResultsExport.sortKey("live_simple_19-3-15"));
        assertEquals(20, BfclResultsExport.sortKey("simple_python_20"));
        assertEquals(7, BfclResultsExport.sortKey("multi_turn_base_7:prereq"));
    }

    @Test
    void csvRanksByTheSortColumnAndFormatsPercentages() {
        String csv = BfclResultsExport.csv(
                List.of("Rank", "Model", "Acc", "Latency"),
                List.of(
                        List.of("N/A", "a", 0.125, 1.09),
                        List.of("N/A", "b", "N/A", "N/A"),
                        List.of("N/A", "c", 0.83333333, 0.5)),
                2,
                List.of(3));
        assertEquals("Rank,Model,Acc,Latency\n1,c,83.33%,0.5\n2,a,12.50%,1.09\n3,b,N/A,N/A", csv);
    }
}
