package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;
import static brokkr.python.PyObjects.dict;
import static brokkr.python.PyObjects.str;
import static brokkr.python.PyObjects.truthy;

import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Live;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.domains.bfcl.multiturn.Scenario;
import brokkr.domains.bfcl.multiturn.SharedList;
import brokkr.python.ArrayVector;
import brokkr.python.PyException;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * gorilla {@code func_source_code/posting_api.py} {@code TwitterAPI}.
 *
 * <p>Quirk: {@code post_tweet(content, tags=[], mentions=[])} — the default {@code mentions} list is one
 * object per process, shared by every tweet posted without that argument (in every instance), and
 * {@code mention()} extends a tweet's list in place. Such a tweet holds {@link #DEFAULT_MENTIONS}, a
 * {@link SharedList} standing for the process-global list (resolved wherever it is rendered); so does
 * every other tweet's list ({@link #MENTIONS_PREFIX}). The default
 * {@code tags} list is never changed in place, so a fresh empty list is the same.
 */
public record TwitterAPI(
        Object username,
        Object password,
        Object authenticated,
        Object tweets,
        Object comments,
        Object retweets,
        Object followingList,
        Object tweetCounter)
        implements Backend {

    /**
     * Every tweet's {@code mentions} list is a {@link SharedList} cell: {@code mention()} extends it in place
     * upstream, and a tweet can be held in several places (a tweet dict passed as another tweet's
     * {@code content} shows later mentions too).
     */
    static final String MENTIONS_PREFIX = "TwitterAPI.tweet.mentions";

    /** The default {@code mentions} list of {@code post_tweet}: one list per process. */
    static final SharedList DEFAULT_MENTIONS = new SharedList("TwitterAPI.post_tweet.mentions");

    @Override
    public Map<String, Object> state(Globals globals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("username", username);
        m.put("password", password);
        m.put("authenticated", authenticated);
        m.put("tweets", tweets);
        m.put("comments", comments);
        m.put("retweets", retweets);
        m.put("following_list", followingList);
        m.put("tweet_counter", tweetCounter);
        return m;
    }

    private static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> s = Scenario.dict(config);
        Object tweets = Scenario.get(s, "tweets", dict());
        // {int(k): v for k, v in self.tweets.items()}
        OrderedPMap<Object, Object> byInt = OrderedPMap.empty();
        for (Map.Entry<?, ?> e : map(tweets, "items").entrySet()) {
            Object tweet = e.getValue();
            if (tweet instanceof Map<?, ?> tm && tm.get("mentions") instanceof List<?> l) {
                Globals.Allocated cell = g.allocate(MENTIONS_PREFIX, l);
                g = cell.globals();
                tweet = PyObjects.setItem(tm, "mentions", cell.ref());
            }
            byInt = PyObjects.setItem(byInt, intOf(e.getKey()), tweet);
        }
        TwitterAPI t = new TwitterAPI(
                Scenario.get(s, "username", "john"),
                Scenario.get(s, "password", "john123"),
                Scenario.get(s, "authenticated", false),
                byInt,
                Scenario.get(s, "comments", dict()),
                Scenario.get(s, "retweets", dict()),
                Scenario.get(s, "following_list", PyObjects.list("alice", "bob")),
                Scenario.get(s, "tweet_counter", BigInteger.ZERO));
        return new Outcome(t, g, PyNone.NONE);
    }

    /** {@code int(k)} of a scenario key (numeric strings in the data). */
    private static Object intOf(Object k) {
        if (k instanceof BigInteger) return k;
        String s = PyObjects.str(k).strip();
        try {
            return new BigInteger(s.replace("_", ""));
        } catch (NumberFormatException e) {
            throw PyException.valueError("invalid literal for int() with base 10: " + PyObjects.repr(k));
        }
    }

    /** The tweet stored under {@code key}, or null. */
    private Object tweet(Object key) {
        return key == null ? null : map(tweets, "get").get(key);
    }

    /** A stored tweet as a live result (found again by its key: tweets are never removed). */
    private Live live(Object tweet) {
        for (Map.Entry<?, ?> e : map(tweets, "items").entrySet()) {
            if (e.getValue() == tweet) {
                Object key = e.getKey();
                return new Live(tweet, b2 -> ((TwitterAPI) b2).tweet(key));
            }
        }
        return new Live(tweet, b2 -> null);
    }

    private static Map<?, ?> map(Object o, String method) {
        if (o instanceof Map<?, ?> m) return m;
        throw PyException.attributeError("'" + PyObjects.typeName(o) + "' object has no attribute '" + method + "'");
    }

    private static TwitterAPI self(Backend b) {
        return (TwitterAPI) b;
    }

    private static Outcome out(TwitterAPI t, Globals g, Object result) {
        return new Outcome(t, g, result);
    }

    private TwitterAPI withAuthenticated(Object v) {
        return new TwitterAPI(username, password, v, tweets, comments, retweets, followingList, tweetCounter);
    }

    private static Outcome authenticate(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (PyObjects.eq(a[0], t.username) && PyObjects.eq(a[1], t.password)) {
            return out(t.withAuthenticated(true), g, dict("authentication_status", true));
        }
        return out(t, g, dict("authentication_status", false));
    }

    private static Outcome loginStatus(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        return out(t, g, dict("login_status", truthy(t.authenticated)));
    }

    private static Outcome postTweet(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (!truthy(t.authenticated))
            return out(t, g, dict("error", "User not authenticated. Please authenticate before posting."));
        Object mentions = a[2];
        if (mentions instanceof List<?> l) {
            Globals.Allocated cell = g.allocate(MENTIONS_PREFIX, l);
            g = cell.globals();
            mentions = cell.ref();
        } else if (mentions instanceof SharedList ref) {
            g = g.sharing(ref); // the default list (DEFAULT_MENTIONS) now held by a tweet
        }
        Object tweet =
                dict("id", t.tweetCounter, "username", t.username, "content", a[0], "tags", a[1], "mentions", mentions);
        Object tweets = PyObjects.setItem(map(t.tweets, "__setitem__"), t.tweetCounter, tweet);
        TwitterAPI next = new TwitterAPI(
                t.username,
                t.password,
                t.authenticated,
                tweets,
                t.comments,
                t.retweets,
                t.followingList,
                PyObjectOps.add(t.tweetCounter, BigInteger.ONE));
        Object key = t.tweetCounter;
        return out(next, g, new Live(tweet, b2 -> ((TwitterAPI) b2).tweet(key)));
    }

    private static Outcome retweet(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        Object id = a[0];
        if (!truthy(t.authenticated))
            return out(t, g, dict("error", "User not authenticated. Please authenticate before retweeting."));
        if (!PyObjectOps.in(id, t.tweets)) return out(t, g, dict("error", "Tweet with ID " + str(id) + " not found."));
        Object retweets = t.retweets;
        if (!PyObjectOps.in(t.username, retweets))
            retweets = PyObjects.setItem(map(retweets, "__setitem__"), t.username, ArrayVector.empty());
        Object mine = PyObjectOps.getItem(retweets, t.username);
        TwitterAPI withList = new TwitterAPI(
                t.username,
                t.password,
                t.authenticated,
                t.tweets,
                t.comments,
                retweets,
                t.followingList,
                t.tweetCounter);
        if (PyObjectOps.in(id, mine)) return out(withList, g, dict("retweet_status", "Already retweeted"));
        retweets = PyObjects.setItem(map(retweets, "__setitem__"), t.username, append(mine, id));
        return out(
                new TwitterAPI(
                        t.username,
                        t.password,
                        t.authenticated,
                        t.tweets,
                        t.comments,
                        retweets,
                        t.followingList,
                        t.tweetCounter),
                g,
                dict("retweet_status", "Successfully retweeted"));
    }

    /** {@code list.append(x)} on a value that must be a list. */
    private static Object append(Object list, Object x) {
        if (!(list instanceof List<?>)) {
            throw PyException.attributeError("'" + PyObjects.typeName(list) + "' object has no attribute 'append'");
        }
        return PyObjectOps.add(list, PyObjects.list(x));
    }

    private static Outcome comment(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        Object id = a[0];
        if (!truthy(t.authenticated))
            return out(t, g, dict("error", "User not authenticated. Please authenticate before commenting."));
        if (!PyObjectOps.in(id, t.tweets)) return out(t, g, dict("error", "Tweet with ID " + str(id) + " not found."));
        Object comments = t.comments;
        if (!PyObjectOps.in(id, comments))
            comments = PyObjects.setItem(map(comments, "__setitem__"), id, ArrayVector.empty());
        Object list = PyObjectOps.getItem(comments, id);
        comments = PyObjects.setItem(
                map(comments, "__setitem__"), id, append(list, dict("username", t.username, "content", a[1])));
        return out(
                new TwitterAPI(
                        t.username,
                        t.password,
                        t.authenticated,
                        t.tweets,
                        comments,
                        t.retweets,
                        t.followingList,
                        t.tweetCounter),
                g,
                dict("comment_status", "Comment added successfully"));
    }

    private static Outcome mention(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        Object id = a[0];
        if (!PyObjectOps.in(id, t.tweets)) return out(t, g, dict("error", "Tweet with ID " + str(id) + " not found."));
        Object tweet = PyObjectOps.getItem(t.tweets, id);
        Object mentions = PyObjectOps.getItem(tweet, "mentions");
        if (mentions instanceof SharedList ref) {
            Object shared = PyObjectOps.add(g.list(ref), ArrayVector.from(PyObjectOps.iterate(a[1])));
            return out(t, g.with(ref.cell(), shared), dict("mention_status", "Users mentioned successfully"));
        }
        if (!(mentions instanceof List<?>)) {
            throw PyException.attributeError("'" + PyObjects.typeName(mentions) + "' object has no attribute 'extend'");
        }
        Object extended = PyObjectOps.add(mentions, ArrayVector.from(PyObjectOps.iterate(a[1])));
        Object tweets = PyObjects.setItem(
                map(t.tweets, "__setitem__"), id, PyObjects.setItem(map(tweet, "__setitem__"), "mentions", extended));
        return out(
                new TwitterAPI(
                        t.username,
                        t.password,
                        t.authenticated,
                        tweets,
                        t.comments,
                        t.retweets,
                        t.followingList,
                        t.tweetCounter),
                g,
                dict("mention_status", "Users mentioned successfully"));
    }

    private static Outcome follow(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (!truthy(t.authenticated))
            return out(t, g, dict("error", "User not authenticated. Please authenticate before following."));
        if (PyObjectOps.in(a[0], t.followingList)) return out(t, g, dict("follow_status", false));
        return out(
                new TwitterAPI(
                        t.username,
                        t.password,
                        t.authenticated,
                        t.tweets,
                        t.comments,
                        t.retweets,
                        append(t.followingList, a[0]),
                        t.tweetCounter),
                g,
                dict("follow_status", true));
    }

    private static Outcome listFollowing(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (!truthy(t.authenticated))
            return out(t, g, dict("error", "User not authenticated. Please authenticate before listing following."));
        return out(t, g, dict("following_list", new Live(t.followingList, b2 -> ((TwitterAPI) b2).followingList)));
    }

    private static Outcome unfollow(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (!truthy(t.authenticated))
            return out(t, g, dict("error", "User not authenticated. Please authenticate before unfollowing."));
        if (!PyObjectOps.in(a[0], t.followingList)) return out(t, g, dict("unfollow_status", false));
        if (!(t.followingList instanceof List<?> l)) {
            throw PyException.attributeError(
                    "'" + PyObjects.typeName(t.followingList) + "' object has no attribute 'remove'");
        }
        List<Object> rest = new ArrayList<>(l);
        for (int i = 0; i < rest.size(); i++)
            if (PyObjects.eq(rest.get(i), a[0])) {
                rest.remove(i);
                break;
            }
        return out(
                new TwitterAPI(
                        t.username,
                        t.password,
                        t.authenticated,
                        t.tweets,
                        t.comments,
                        t.retweets,
                        ArrayVector.from(rest),
                        t.tweetCounter),
                g,
                dict("unfollow_status", true));
    }

    private static Outcome getTweet(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (!PyObjectOps.in(a[0], t.tweets))
            return out(t, g, dict("error", "Tweet with ID " + str(a[0]) + " not found."));
        Object stored = PyObjectOps.getItem(t.tweets, a[0]);
        Object key = PyObjects.findKey(map(t.tweets, "get"), a[0]);
        return out(t, g, new Live(stored, b2 -> ((TwitterAPI) b2).tweet(key)));
    }

    private static Outcome userTweets(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        List<Object> out = new ArrayList<>();
        for (Object tweet : map(t.tweets, "values").values()) {
            if (PyObjects.eq(PyObjectOps.getItem(tweet, "username"), a[0])) out.add(t.live(tweet));
        }
        return out(t, g, ArrayVector.from(out));
    }

    private static Outcome searchTweets(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        List<Object> out = new ArrayList<>();
        for (Object tweet : map(t.tweets, "values").values()) {
            String keyword = PyObjectOps.lower(a[0]);
            boolean hit =
                    PyObjectOps.lower(PyObjectOps.getItem(tweet, "content")).contains(keyword);
            if (!hit) {
                List<Object> tags = new ArrayList<>();
                for (Object tag : PyObjectOps.iterate(PyObjectOps.getItem(tweet, "tags")))
                    tags.add(PyObjectOps.lower(tag));
                hit = tags.contains(keyword);
            }
            if (hit) out.add(t.live(tweet));
        }
        return out(t, g, ArrayVector.from(out));
    }

    private static Outcome tweetComments(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        if (!PyObjectOps.in(a[0], t.tweets))
            return out(t, g, dict("error", "Tweet with ID " + str(a[0]) + " not found."));
        Object key = PyObjects.findKey(map(t.comments, "get"), a[0]);
        if (key == null) return out(t, g, ArrayVector.empty());
        return out(
                t,
                g,
                new Live(
                        map(t.comments, "get").get(key),
                        b2 -> map(((TwitterAPI) b2).comments, "get").get(key)));
    }

    private static Outcome userStats(Backend b, Object[] a, Globals g) {
        TwitterAPI t = self(b);
        long count = 0;
        for (Object tweet : map(t.tweets, "values").values()) {
            if (PyObjects.eq(PyObjectOps.getItem(tweet, "username"), a[0])) count++;
        }
        long following = PyObjects.eq(a[0], t.username) ? PyObjectOps.len(t.followingList) : 0;
        long retweetCount = PyObjectOps.len(PyObjects.get(map(t.retweets, "get"), a[0], ArrayVector.empty()));
        return out(
                t,
                g,
                dict(
                        "tweet_count",
                        BigInteger.valueOf(count),
                        "following_count",
                        BigInteger.valueOf(following),
                        "retweet_count",
                        BigInteger.valueOf(retweetCount)));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "TwitterAPI",
            false,
            TwitterAPI::load,
            List.of(
                    Method.of(
                            "authenticate_twitter",
                            TwitterAPI::authenticate,
                            required("username"),
                            required("password")),
                    Method.of("posting_get_login_status", TwitterAPI::loginStatus),
                    Method.of(
                            "post_tweet",
                            TwitterAPI::postTweet,
                            required("content"),
                            optional("tags", ArrayVector.empty()),
                            optional("mentions", DEFAULT_MENTIONS)),
                    Method.of("retweet", TwitterAPI::retweet, required("tweet_id")),
                    Method.of("comment", TwitterAPI::comment, required("tweet_id"), required("comment_content")),
                    Method.of("mention", TwitterAPI::mention, required("tweet_id"), required("mentioned_usernames")),
                    Method.of("follow_user", TwitterAPI::follow, required("username_to_follow")),
                    Method.of("list_all_following", TwitterAPI::listFollowing),
                    Method.of("unfollow_user", TwitterAPI::unfollow, required("username_to_unfollow")),
                    Method.of("get_tweet", TwitterAPI::getTweet, required("tweet_id")),
                    Method.of("get_user_tweets", TwitterAPI::userTweets, required("username")),
                    Method.of("search_tweets", TwitterAPI::searchTweets, required("keyword")),
                    Method.of("get_tweet_comments", TwitterAPI::tweetComments, required("tweet_id")),
                    Method.of("get_user_stats", TwitterAPI::userStats, required("username"))));
}
