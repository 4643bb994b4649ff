package org.nectl.service.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The dashboard's embedded Jetty 12 server: serves one page, its script and style, and uPlot from
 * its webjar, all from the classpath, and pushes JSON frames to every browser over a WebSocket at
 * {@value #STREAM_PATH}. Read-only by construction: only GET and HEAD of those files are answered,
 * and a browser that sends anything on the WebSocket is disconnected; an upgrade whose Origin is
 * not the page's own host is refused, so another site open in the same browser cannot read the
 * stream.
 *
 * <p>Thread safe: {@link #broadcast} and {@link #publishLayout} are called by the feed thread,
 * sessions open on Jetty's threads.
 */
public final class DashboardServer implements AutoCloseable
{
    /** WebSocket path of the frame stream. */
    public static final String STREAM_PATH = "/stream";
    /** Prefix of the names of every thread of the server. */
    public static final String THREAD_NAME_PREFIX = "nectl-dashboard-http";
    /** Events kept for a browser that connects later. */
    static final int EVENTS_KEPT = 50;
    /** Sample frames a browser may have in flight; beyond, only the newest waits for the next to complete (events never wait). */
    private static final int MAX_PENDING_SAMPLES = 4;
    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final String PAGE = "org/nectl/service/dashboard/";
    /** Browsers send nothing; a frame above this closes the session before it is buffered. */
    private static final long MAX_INCOMING_BYTES = 128;

    private final Server server;
    private final ServerConnector connector;
    private final Map<String, StaticFile> files;
    private final Set<Client> clients = new CopyOnWriteArraySet<>();
    private final Deque<String> recentEvents = new ConcurrentLinkedDeque<>();
    private volatile String layout;

    private record StaticFile(byte[] content, String contentType)
    {
    }

    /** One browser's session and its sample frames in flight; public for Jetty's method handles only. */
    public static final class Client implements Session.Listener.AutoDemanding
    {
        private final AtomicInteger pendingSamples = new AtomicInteger();
        private final AtomicReference<String> waitingSample = new AtomicReference<>();
        private final DashboardServer server;
        private volatile Session session;

        private Client(final DashboardServer server)
        {
            this.server = server;
        }

        @Override
        public void onWebSocketOpen(final Session opened)
        {
            session = opened;
            server.clients.add(this);
            final String knownLayout = server.layout;
            if (knownLayout != null)
            {
                opened.sendText(knownLayout, org.eclipse.jetty.websocket.api.Callback.NOOP);
            }
            server.recentEvents.forEach(event -> opened.sendText(event, org.eclipse.jetty.websocket.api.Callback.NOOP));
        }

        @Override
        public void onWebSocketText(final String message)
        {
            // No command path from the browser: whatever it sends ends its session.
            session.close(StatusCode.POLICY_VIOLATION, "the dashboard is read-only", org.eclipse.jetty.websocket.api.Callback.NOOP);
        }

        @Override
        public void onWebSocketBinary(final ByteBuffer payload, final org.eclipse.jetty.websocket.api.Callback callback)
        {
            callback.succeed();
            onWebSocketText("");
        }

        @Override
        public void onWebSocketClose(final int statusCode, final String reason, final org.eclipse.jetty.websocket.api.Callback callback)
        {
            server.clients.remove(this);
            callback.succeed();
        }

        @Override
        public void onWebSocketError(final Throwable cause)
        {
            server.clients.remove(this);
        }

        void sendSample(final String frame)
        {
            if (pendingSamples.get() >= MAX_PENDING_SAMPLES)
            {
                // A slow browser skips frames but never misses the newest: it goes when a send completes.
                waitingSample.set(frame);
                return;
            }
            pendingSamples.incrementAndGet();
            session.sendText(frame, org.eclipse.jetty.websocket.api.Callback.from(this::sampleSent, failure -> sampleSent()));
        }

        private void sampleSent()
        {
            pendingSamples.decrementAndGet();
            final String waiting = waitingSample.getAndSet(null);
            if (waiting != null && session.isOpen())
            {
                sendSample(waiting);
            }
        }

        void send(final String frame)
        {
            session.sendText(frame, org.eclipse.jetty.websocket.api.Callback.NOOP);
        }
    }

    /**
     * Binds and starts the server.
     *
     * @param address where to listen; port 0 for an ephemeral port.
     * @throws IOException if the address cannot be bound (in use, not local).
     */
    public DashboardServer(final InetSocketAddress address) throws IOException
    {
        files = Map.of(
            "/", file(PAGE + "index.html", "text/html; charset=utf-8"),
            "/dashboard.js", file(PAGE + "dashboard.js", "text/javascript; charset=utf-8"),
            "/dashboard.css", file(PAGE + "dashboard.css", "text/css; charset=utf-8"),
            "/uPlot.iife.min.js", file(UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"),
            "/uPlot.min.css", file(UPLOT + "uPlot.min.css", "text/css; charset=utf-8"));
        final QueuedThreadPool threads = new QueuedThreadPool(8, 2);
        threads.setName(THREAD_NAME_PREFIX);
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        // A held simulator or a quiet service sends no frames for a while: the page must not be dropped meanwhile.
        connector.setIdleTimeout(Duration.ofMinutes(10).toMillis());
        server.addConnector(connector);
        final WebSocketUpgradeHandler webSocket = WebSocketUpgradeHandler.from(server, container ->
        {
            container.setMaxTextMessageSize(MAX_INCOMING_BYTES);
            container.setMaxBinaryMessageSize(MAX_INCOMING_BYTES);
            container.setIdleTimeout(Duration.ofMinutes(10));
            container.setMaxOutgoingFrames(256);
            container.addMapping(STREAM_PATH, this::upgrade);
        });
        webSocket.setHandler(new Handler.Abstract.NonBlocking()
        {
            @Override
            public boolean handle(final Request request, final Response response, final Callback callback)
            {
                return serve(request, response, callback);
            }
        });
        server.setHandler(webSocket);
        try
        {
            server.start();
        }
        catch (final IOException e)
        {
            stopQuietly();
            throw e;
        }
        catch (final Exception e)
        {
            stopQuietly();
            throw new IllegalStateException("cannot start the dashboard server on " + address, e);
        }
    }

    /** @return the address the server listens on, its port resolved. */
    public InetSocketAddress address()
    {
        return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
    }

    /** @return the page's URL. */
    public URI uri()
    {
        final InetSocketAddress bound = address();
        final String host = bound.getHostString().contains(":") ? "[" + bound.getHostString() + "]" : bound.getHostString();
        return URI.create("http://" + host + ":" + bound.getPort() + "/");
    }

    /** @return browsers connected now. */
    public int clientCount()
    {
        return clients.size();
    }

    /** Sets the layout frame sent first to every browser, and sends it to those connected. */
    void publishLayout(final String layoutFrame)
    {
        layout = layoutFrame;
        clients.forEach(client -> client.send(layoutFrame));
    }

    /** Sends a sample frame; a browser with frames still in flight skips it. */
    void broadcastSample(final String frame)
    {
        clients.forEach(client -> client.sendSample(frame));
    }

    /** Sends an event frame to every browser and keeps it for those that connect later. */
    void broadcastEvent(final String frame)
    {
        recentEvents.addLast(frame);
        while (recentEvents.size() > EVENTS_KEPT)
        {
            recentEvents.pollFirst();
        }
        clients.forEach(client -> client.send(frame));
    }

    @Override
    public void close()
    {
        stopQuietly();
    }

    private Object upgrade(final ServerUpgradeRequest request, final ServerUpgradeResponse response, final Callback callback)
    {
        final String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        final String host = request.getHeaders().get(HttpHeader.HOST);
        if (origin != null && (host == null || !(origin.equals("http://" + host) || origin.equals("https://" + host))))
        {
            Response.writeError(request, response, callback, HttpStatus.FORBIDDEN_403, "cross-origin WebSocket refused");
            return null;
        }
        return new Client(this);
    }

    private boolean serve(final Request request, final Response response, final Callback callback)
    {
        final StaticFile file = files.get(Request.getPathInContext(request));
        if (file == null)
        {
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        final boolean head = HttpMethod.HEAD.is(request.getMethod());
        if (!head && !HttpMethod.GET.is(request.getMethod()))
        {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return true;
        }
        response.setStatus(HttpStatus.OK_200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, file.contentType);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, file.content.length);
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(file.content), callback);
        return true;
    }

    private void stopQuietly()
    {
        try
        {
            server.stop();
        }
        catch (final Exception e)
        {
            throw new IllegalStateException("cannot stop the dashboard server", e);
        }
    }

    private static StaticFile file(final String resource, final String contentType)
    {
        try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing resource " + resource + " on the classpath");
            }
            return new StaticFile(in.readAllBytes(), contentType);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
